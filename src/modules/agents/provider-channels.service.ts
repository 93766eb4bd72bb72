import { Injectable } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { AppConfig } from '@/config/app-config';
import { AgentChannelEntity, ChannelType } from './entities/agent-channel.entity';
import { ChannelsRepository } from './channels/channels.repository';

/** The channel types whose messages go out through a provider's send API. */
const SENDING_TYPES: readonly ChannelType[] = ['whatsapp', 'messenger', 'instagram'];

/**
 * The installation's shared WhatsApp test number (TEST_WHATSAPP_* settings) as a channel: its
 * webhook is `/api/v1/channels/test-whatsapp/webhook`, and its conversations carry this id.
 */
export const TEST_NUMBER_CHANNEL_ID = 'test-whatsapp';

/** What sending through a provider, or fetching a customer's media from it, needs of a channel. */
export type ProviderChannel = Pick<AgentChannelEntity, 'id' | 'type' | 'isConnected' | 'config'>;

/** A provider's channel with its secrets opened (access_token, app_secret, verify_token). */
export interface ProviderAccess {
  channel: ProviderChannel;
  secrets: Record<string, string>;
}

/** Of a conversation, what says which channel its messages go out through. */
export type ConversationRoute = {
  teamId: string;
  agentId: string;
  channelType: ChannelType;
  channelId: string | null;
  isTestChannel: boolean;
};

/**
 * The channels that carry messages to and from a provider, with their secrets opened: the one a
 * conversation sends through, the one a webhook's URL names, and the installation's shared test
 * number (TEST_WHATSAPP_* settings), which belongs to no team.
 */
@Injectable()
export class ProviderChannels {
  private readonly testNumberAccess: ProviderAccess | null;

  constructor(
    private readonly channels: ChannelsRepository,
    private readonly secretBox: SecretBox,
    config: AppConfig,
  ) {
    const testNumber = config.meta.testNumber;
    this.testNumberAccess = testNumber && {
      channel: {
        id: TEST_NUMBER_CHANNEL_ID,
        type: 'whatsapp',
        isConnected: true,
        config: {
          phone_number_id: testNumber.phoneNumberId,
          display_phone_number: testNumber.displayNumber,
        },
      },
      secrets: {
        access_token: testNumber.accessToken,
        app_secret: testNumber.appSecret,
        verify_token: testNumber.verifyToken,
      },
    };
  }

  /**
   * The channel a conversation's messages go out through, or null: the agent's connected
   * WhatsApp, Messenger or Instagram channel of the conversation's type, or for a test
   * conversation the shared test number it came through. A web chat's replies reach the visitor
   * through its stream instead, and other test conversations are not sent anywhere.
   */
  async sendingChannel(conversation: ConversationRoute): Promise<ProviderChannel | null> {
    const { teamId, agentId, channelType, channelId, isTestChannel } = conversation;
    if (isTestChannel) {
      return channelType === 'whatsapp' && channelId === TEST_NUMBER_CHANNEL_ID
        ? (this.testNumberAccess?.channel ?? null)
        : null;
    }
    if (!SENDING_TYPES.includes(channelType)) {
      return null;
    }
    return this.channels.findConnected(teamId, agentId, channelType);
  }

  /**
   * The channel `id` with its secrets opened, connected or not (a send checks it still is); the
   * shared test number for TEST_NUMBER_CHANNEL_ID while it is configured.
   */
  async withSecrets(teamId: string, id: string): Promise<ProviderAccess | null> {
    if (id === TEST_NUMBER_CHANNEL_ID) {
      return this.testNumberAccess;
    }
    const channel = await this.channels.findById(teamId, id);
    if (!channel) {
      return null;
    }
    return { channel, secrets: this.secretBox.openJson<Record<string, string>>(channel.secrets) };
  }

  /** The shared test number with its settings as secrets, or null when it is not configured. */
  testNumber(): ProviderAccess | null {
    return this.testNumberAccess;
  }

  /**
   * The connected WhatsApp, Messenger or Instagram channel `id` with its secrets, or null: what a
   * provider's webhook finds by the id in its URL (never by ids inside the body).
   */
  async metaChannel(
    id: string,
  ): Promise<{ channel: AgentChannelEntity; secrets: Record<string, string> } | null> {
    const channel = await this.channels.findConnectedById(id);
    if (!channel || !SENDING_TYPES.includes(channel.type)) {
      return null;
    }
    return { channel, secrets: this.secretBox.openJson<Record<string, string>>(channel.secrets) };
  }
}
