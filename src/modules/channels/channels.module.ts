import { Module } from '@nestjs/common';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { ConversationsModule } from '@/modules/conversations/conversations.module';
import { ChannelSendWorker } from './channel-send.worker';
import { ChannelSender } from './channel-sender';
import { ChannelInboundRepository } from './inbound/channel-inbound.repository';
import { ChannelInboundWorker } from './inbound/channel-inbound.worker';
import { ChannelWebhookController } from './inbound/channel-webhook.controller';
import { InboundSeenRetention } from './inbound/inbound-seen-retention';
import { MetaSignatureGuard } from './inbound/meta-signature.guard';
import { SenderProfiles } from './inbound/sender-profiles';
import { WebhookTargets } from './inbound/webhook-targets';
import { TestNumberInboundWorker } from './test-number/test-number-inbound.worker';
import { TestNumberRepository } from './test-number/test-number.repository';

/**
 * The channels' providers (WhatsApp, Messenger, Instagram through Meta's Graph API): their
 * webhook and the worker that takes its notifications in, and the worker that sends the
 * conversations' outbox through them (docs/api.md §4d); and the installation's shared WhatsApp
 * test number, whose senders reach the agent whose test code they sent.
 */
@Module({
  imports: [AgentsModule, ConversationsModule, OutboundModule],
  controllers: [ChannelWebhookController],
  providers: [
    ChannelSender,
    ChannelSendWorker,
    ChannelInboundRepository,
    ChannelInboundWorker,
    MetaSignatureGuard,
    SenderProfiles,
    WebhookTargets,
    TestNumberRepository,
    TestNumberInboundWorker,
    InboundSeenRetention,
  ],
})
export class ChannelsModule {}
