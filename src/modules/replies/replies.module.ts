import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@/common/idempotency/idempotency.module';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { ConversationsModule } from '@/modules/conversations/conversations.module';
import { IntegrationsModule } from '@/modules/integrations/integrations.module';
import { KnowledgeModule } from '@/modules/knowledge/knowledge.module';
import { ModelSettingsModule } from '@/modules/model-settings/model-settings.module';
import { UsageModule } from '@/modules/usage/usage.module';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { WorkflowsModule } from '@/modules/workflows/workflows.module';
import { ActionRunner } from './action-runs/action-runner.service';
import { ActionRunsController } from './action-runs/action-runs.controller';
import { ActionRunsRepository } from './action-runs/action-runs.repository';
import { ActionRunsService } from './action-runs/action-runs.service';
import { RunStates } from './action-runs/run-states';
import { RunSweeper } from './action-runs/run-sweeper.service';
import { KnowledgeSearch } from './knowledge-search';
import { ModelClient } from './model/model-client';
import { ModelProviders } from './model/model-providers';
import { ModelReplier } from './model/model-replier';
import { PendingRepliesRepository } from './pending-replies.repository';
import { REPLY_ENGINE } from './reply-engine';
import { ReplyPipeline } from './reply-pipeline';
import { ReplyQueueMetrics } from './reply-queue.metrics';
import { ReplyWorker } from './reply-worker.service';
import { WorkflowTriggersCache } from './rules/workflow-triggers.cache';

/**
 * The AI's side of a conversation: the reply worker and its pipeline (rules, flows, knowledge or
 * the model, hand-off), and the action runs replies make, with people's decisions on them.
 */
@Module({
  imports: [
    OutboundModule,
    AgentsModule,
    WorkflowsModule,
    KnowledgeModule,
    IntegrationsModule,
    ConversationsModule,
    WebhooksModule,
    IdempotencyModule,
    UsageModule,
    ModelSettingsModule,
  ],
  controllers: [ActionRunsController],
  providers: [
    PendingRepliesRepository,
    ReplyQueueMetrics,
    KnowledgeSearch,
    WorkflowTriggersCache,
    ModelProviders,
    ModelClient,
    ModelReplier,
    { provide: REPLY_ENGINE, useClass: ReplyPipeline },
    ReplyWorker,
    ActionRunsRepository,
    RunStates,
    ActionRunner,
    ActionRunsService,
    RunSweeper,
  ],
})
export class RepliesModule {}
