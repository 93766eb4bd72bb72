import { Module } from '@nestjs/common';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { ConversationsModule } from '@/modules/conversations/conversations.module';
import { ChannelSendWorker } from './channel-send.worker';
import { ChannelSender } from './channel-sender';
import { ChannelInboundRepository } from './inbound/channel-inbound.repository';
import { ChannelInboundWorker } from './inbound/channel-inbound.worker';
import { ChannelWebhookController } from './inbound/channel-webhook.controller';

/**
 * The channels' providers (WhatsApp, Messenger, Instagram through Meta's Graph API): their
 * webhook and the worker that takes its notifications in, and the worker that sends the
 * conversations' outbox through them (docs/api.md §4d).
 */
@Module({
  imports: [AgentsModule, ConversationsModule, OutboundModule],
  controllers: [ChannelWebhookController],
  providers: [ChannelSender, ChannelSendWorker, ChannelInboundRepository, ChannelInboundWorker],
})
export class ChannelsModule {}
