import { Injectable } from '@nestjs/common';
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
import { WebchatConnectDto } from './dto/webchat-connect.dto';
import { AgentChannelEntity, ChannelType, WebchatConfig } from './entities/agent-channel.entity';

/** A channel just connected, with what the business does next (a web chat: its key and snippet). */
export interface ConnectedChannel {
  channel: AgentChannelEntity;
  publishableKey?: string;
  embedSnippet?: string;
}

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

  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly channels: ChannelsRepository,
    private readonly webhooks: WebhookEvents,
    private readonly secretBox: SecretBox,
    config: AppConfig,
  ) {
    this.publicUrl = config.publicSurface.url;
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

  /** Refuses a connect this service cannot make for `type` (telephony: calls are not answered). */
  async refuseConnect(teamId: string, agentId: string, type: ChannelType): Promise<never> {
    await this.agents.requireOwned(teamId, agentId);
    if (type === 'telephony') {
      throw Errors.badRequest(
        `telephony cannot be connected here: ${CALLS_UNAVAILABLE}. Phone numbers: POST /phone-numbers/request`,
      );
    }
    throw Errors.badRequest(`${type} channels cannot be connected on this server yet`);
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
