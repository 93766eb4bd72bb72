import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { ActionRunsModule } from '@/modules/agents/action-runs/action-runs.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { KnowledgeBasesModule } from '@/modules/agents/knowledge-bases/knowledge-bases.module';
import { ApiKeysModule } from '@/modules/auth/api-keys.module';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { WorkflowsModule } from '@/modules/workflows/workflows.module';
import { ConversationEvents } from './conversation-events';
import { ConversationsController } from './conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { ConversationEntity } from './entities/conversation.entity';
import { MessageEntity, PendingReplyEntity } from './entities/message.entity';
import { MessagePublisher } from './messages/message-publisher';
import { MessagesRepository } from './messages/messages.repository';
import { KnowledgeSearch } from './replies/knowledge-search';
import { ModelClient } from './replies/model/model-client';
import { ModelReplier } from './replies/model/model-replier';
import { PendingRepliesRepository } from './replies/pending-replies.repository';
import { ReplyQueueMetrics } from './replies/reply-queue.metrics';
import { REPLY_ENGINE } from './replies/reply-engine';
import { ReplyPipeline } from './replies/reply-pipeline';
import { ReplyWorker } from './replies/reply-worker.service';
import { WorkflowTriggersCache } from './replies/workflow-triggers.cache';
import { OpenStreams } from './stream/open-streams';
import { StreamAccessGuard } from './stream/stream-access.guard';
import { StreamTicketsService } from './stream/stream-tickets.service';
import { StreamController } from './stream/stream.controller';
import { StreamService } from './stream/stream.service';

@Module({
  imports: [
    AgentsModule,
    KnowledgeBasesModule,
    ApiKeysModule,
    WorkflowsModule,
    WebhooksModule,
    // Replies run actions; a decision on a run lets its conversation's reply continue.
    forwardRef(() => ActionRunsModule),
    TypeOrmModule.forFeature([ConversationEntity, MessageEntity, PendingReplyEntity]),
  ],
  // The stream controller first: its `…/messages/stream` must win over `…/messages/:messageId`.
  controllers: [StreamController, ConversationsController],
  providers: [
    ConversationEvents,
    ConversationsRepository,
    MessagesRepository,
    PendingRepliesRepository,
    ReplyQueueMetrics,
    ConversationsService,
    MessagePublisher,
    KnowledgeSearch,
    WorkflowTriggersCache,
    OutboundHttp,
    ModelClient,
    ModelReplier,
    { provide: REPLY_ENGINE, useClass: ReplyPipeline },
    ReplyWorker,
    StreamTicketsService,
    StreamService,
    OpenStreams,
    StreamAccessGuard,
  ],
  exports: [ConversationsService],
})
export class ConversationsModule {}
