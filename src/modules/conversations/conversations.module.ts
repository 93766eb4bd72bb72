import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@/config/app-config';
import { AgentsModule } from '@/modules/agents/agents.module';
import { KnowledgeBasesModule } from '@/modules/agents/knowledge-bases/knowledge-bases.module';
import { ApiKeysModule } from '@/modules/auth/api-keys.module';
import { WorkflowsModule } from '@/modules/workflows/workflows.module';
import { ConversationsController } from './conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { ConversationEntity } from './entities/conversation.entity';
import { MessageEntity, PendingReplyEntity } from './entities/message.entity';
import { MessagePublisher } from './messages/message-publisher';
import { MessagesRepository } from './messages/messages.repository';
import { BuiltInReplyEngine } from './replies/built-in-reply.engine';
import { KnowledgeSearch } from './replies/knowledge-search';
import { LlmReplyEngine } from './replies/llm-reply.engine';
import { PendingRepliesRepository } from './replies/pending-replies.repository';
import { ReplyQueueMetrics } from './replies/reply-queue.metrics';
import { REPLY_ENGINE } from './replies/reply-engine';
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
    TypeOrmModule.forFeature([ConversationEntity, MessageEntity, PendingReplyEntity]),
  ],
  // The stream controller first: its `…/messages/stream` must win over `…/messages/:messageId`.
  controllers: [StreamController, ConversationsController],
  providers: [
    ConversationsRepository,
    MessagesRepository,
    PendingRepliesRepository,
    ReplyQueueMetrics,
    ConversationsService,
    MessagePublisher,
    KnowledgeSearch,
    WorkflowTriggersCache,
    BuiltInReplyEngine,
    {
      provide: REPLY_ENGINE,
      inject: [AppConfig, KnowledgeSearch, WorkflowTriggersCache],
      useFactory: (
        config: AppConfig,
        knowledge: KnowledgeSearch,
        triggers: WorkflowTriggersCache,
      ) =>
        config.llm.baseUrl
          ? new LlmReplyEngine(knowledge, config)
          : new BuiltInReplyEngine(knowledge, triggers),
    },
    ReplyWorker,
    StreamTicketsService,
    StreamService,
    OpenStreams,
    StreamAccessGuard,
  ],
})
export class ConversationsModule {}
