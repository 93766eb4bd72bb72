import { Module } from '@nestjs/common';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { ConversationsModule } from '@/modules/conversations/conversations.module';
import { ChannelSendWorker } from './channel-send.worker';
import { ChannelSender } from './channel-sender';

/**
 * The channels' providers (WhatsApp, Messenger, Instagram through Meta's Graph API): the worker
 * that sends the conversations' outbox through them (docs/api.md §4d).
 */
@Module({
  imports: [AgentsModule, ConversationsModule, OutboundModule],
  providers: [ChannelSender, ChannelSendWorker],
})
export class ChannelsModule {}
