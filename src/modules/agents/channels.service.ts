import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { Errors } from '@/common/http/api-error';
import { AppConfig } from '@/config/app-config';
import { SecretBox } from '@/config/secret-box';
import { Database } from '@/database/database.service';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { AgentsService } from './agents.service';
import { CALLS_UNAVAILABLE, DISCONNECTED } from './channels/channel-reasons';
import { ChannelsRepository } from './channels/channels.repository';
import {
  generatePublishableKey,
  hashPublishableKey,
  isPublishableKeyFormat,
} from './channels/publishable-keys';
import { toChannelResponse } from './dto/channel-response.dto';
import { MetaPageConnectDto, WhatsAppConnectDto } from './dto/meta-connect.dto';
import { WebchatConnectDto } from './dto/webchat-connect.dto';
import { checkMetaCredentials } from './channels/meta-credentials';
import {
  AgentChannelEntity,
  ChannelConfig,
  ChannelType,
  WebchatConfig,
} from './entities/agent-channel.entity';

/** A channel just connected, with what the business does next (a web chat: its key and snippet). */
export interface ConnectedChannel {
  channel: AgentChannelEntity;
  publishableKey?: string;
  embedSnippet?: string;
  webhookUrl?: string;
  verifyToken?: string;
}

export type MetaChannelType = 'whatsapp' | 'messenger' | 'instagram';

/** The secrets a web chat keeps sealed: its publishable key, shown again at each connect. */
interface WebchatSecrets extends Record<string, unknown> {
  publishable_key: string;
}

/**
 * Connecting and disconnecting an agent's channels (docs/api.md §4d), and finding a web chat by
 * the publishable key its pages carry. Each status change is announced (`channel.status_changed`)
 * in the transaction that makes it.
 */
@Injectable()
export class ChannelsService {
  private readonly publicUrl: string;
  private readonly publicUrlConfigured: boolean;
  private readonly graphBaseUrl: string;
  private readonly outboundTimeoutMs: number;

  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly channels: ChannelsRepository,
    private readonly webhooks: WebhookEvents,
    private readonly secretBox: SecretBox,
    private readonly outbound: OutboundHttp,
    config: AppConfig,
  ) {
    this.publicUrl = config.publicSurface.url;
    this.publicUrlConfigured = config.publicSurface.urlConfigured;
    this.graphBaseUrl = config.meta.graphBaseUrl;
    this.outboundTimeoutMs = config.outbound.timeoutMs;
  }

  async connectWebchat(
    teamId: string,
    agentId: string,
    input: WebchatConnectDto,
  ): Promise<ConnectedChannel> {
    await this.agents.requireOwned(teamId, agentId);
    return this.db.transaction(async () => {
      const current = await this.requireChannel(teamId, agentId, 'webchat');
      const kept = current.secrets
        ? this.secretBox.openJson<WebchatSecrets>(current.secrets).publishable_key
        : undefined;
      const publishableKey = kept && !input.rotate_key ? kept : generatePublishableKey();
      const config: WebchatConfig = {
        title: input.title ?? null,
        greeting: input.greeting ?? null,
        color: input.color?.toLowerCase() ?? null,
      };
      const now = new Date();
      const changes = {
        status: 'active' as const,
        statusReason: null,
        isConnected: true,
        config,
        allowedOrigins: [...new Set(input.allowed_origins)],
        secrets: this.secretBox.sealJson({ publishable_key: publishableKey }),
        publishableKeyHash: hashPublishableKey(publishableKey),
        connectedAt: current.isConnected ? current.connectedAt : now,
        updatedAt: now,
      };
      await this.channels.update(teamId, current.id, changes);
      const channel: AgentChannelEntity = { ...current, ...changes };
      await this.announceIfChanged(current, channel);
      return {
        channel,
        publishableKey,
        embedSnippet: `<script src="${this.publicUrl}/widget.js" data-key="${publishableKey}" async></script>`,
      };
    });
  }

  /**
   * Connects WhatsApp, Messenger or Instagram: the credentials are checked with Meta first (no
   * transaction open meanwhile; refused 400, unreachable 502, nothing stored), then stored sealed.
   * The answer carries the webhook URL and verify token to paste in the Meta app.
   */
  async connectMeta(
    teamId: string,
    agentId: string,
    type: MetaChannelType,
    input: WhatsAppConnectDto | MetaPageConnectDto,
  ): Promise<ConnectedChannel> {
    await this.agents.requireOwned(teamId, agentId);
    if (!this.publicUrlConfigured) {
      throw Errors.badRequest(
        'PUBLIC_URL is not configured: Meta needs the public address of this service to send ' +
          'webhook notifications to',
      );
    }
    const whatsapp = 'phone_number_id' in input;
    const id = whatsapp ? input.phone_number_id : input.page_id;
    const token = whatsapp ? input.access_token : input.page_access_token;
    const account = await checkMetaCredentials(
      this.outbound.operatorFetch(this.outboundTimeoutMs),
      this.graphBaseUrl,
      id,
      token,
      whatsapp ? 'display_phone_number,verified_name' : 'name',
    );
    const verifyToken = input.verify_token ?? randomBytes(24).toString('base64url');
    return this.db.transaction(async () => {
      const current = await this.requireChannel(teamId, agentId, type);
      const now = new Date();
      const changes = {
        status: 'active' as const,
        statusReason: null,
        isConnected: true,
        config: (whatsapp
          ? { phone_number_id: id, display_phone_number: account.label }
          : { page_id: id, page_name: account.label }) as ChannelConfig,
        allowedOrigins: [],
        secrets: this.secretBox.sealJson({
          access_token: token,
          app_secret: input.app_secret,
          verify_token: verifyToken,
        }),
        publishableKeyHash: null,
        connectedAt: current.isConnected ? current.connectedAt : now,
        updatedAt: now,
      };
      await this.channels.update(teamId, current.id, changes);
      const channel: AgentChannelEntity = { ...current, ...changes };
      await this.announceIfChanged(current, channel);
      return {
        channel,
        webhookUrl: `${this.publicUrl}/api/v1/channels/${channel.id}/webhook`,
        verifyToken,
      };
    });
  }

  /** Refuses a connect this service cannot make for `type` (telephony: calls are not answered). */
  async refuseConnect(teamId: string, agentId: string, type: ChannelType): Promise<never> {
    await this.agents.requireOwned(teamId, agentId);
    if (type === 'telephony') {
      throw Errors.badRequest(
        `telephony cannot be connected here: ${CALLS_UNAVAILABLE}. Phone numbers: POST /phone-numbers/request`,
      );
    }
    throw Errors.notFound('Channel not found');
  }

  /** Stops the channel: its inbound answers 404, its publishable key and secrets are forgotten. */
  async disconnect(
    teamId: string,
    agentId: string,
    type: ChannelType,
  ): Promise<AgentChannelEntity> {
    await this.agents.requireOwned(teamId, agentId);
    return this.db.transaction(async () => {
      const current = await this.requireChannel(teamId, agentId, type);
      if (!current.isConnected) {
        return current;
      }
      const changes = {
        status: 'inactive' as const,
        statusReason: DISCONNECTED,
        isConnected: false,
        config: {},
        allowedOrigins: [],
        secrets: null,
        publishableKeyHash: null,
        connectedAt: null,
        updatedAt: new Date(),
      };
      await this.channels.update(teamId, current.id, changes);
      const channel: AgentChannelEntity = { ...current, ...changes };
      await this.announceIfChanged(current, channel);
      return channel;
    });
  }

  /** The connected web chat a publishable key names, or null. */
  async webchatForKey(key: string): Promise<AgentChannelEntity | null> {
    if (!isPublishableKeyFormat(key)) {
      return null;
    }
    return this.channels.findByPublishableKey(hashPublishableKey(key));
  }

  /** The connected web chat `id`, or null (a visitor's stream checks its chat is still on). */
  webchatById(id: string): Promise<AgentChannelEntity | null> {
    return this.channels.findConnectedWebchat(id);
  }

  /** Whether some connected web chat allows pages of `origin` (for CORS preflights). */
  anyWebchatAllows(origin: string): Promise<boolean> {
    return this.channels.anyWebchatAllows(origin);
  }

  private async requireChannel(
    teamId: string,
    agentId: string,
    type: ChannelType,
  ): Promise<AgentChannelEntity> {
    const channel = await this.channels.findForUpdate(teamId, agentId, type);
    if (!channel) {
      throw Errors.notFound('Channel not found');
    }
    return channel;
  }

  private async announceIfChanged(before: AgentChannelEntity, after: AgentChannelEntity) {
    if (before.status !== after.status || before.isConnected !== after.isConnected) {
      await this.webhooks.emit(after.teamId, 'channel.status_changed', {
        ...toChannelResponse(after),
        agent_id: after.agentId,
      });
    }
  }
}
