import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '@/common/idempotency/idempotency.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { IntegrationsModule } from '@/modules/agents/integrations/integrations.module';
import { ConversationsModule } from '@/modules/conversations/conversations.module';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { ActionRunner } from './action-runner.service';
import { ActionRunsController } from './action-runs.controller';
import { ActionRunsRepository } from './action-runs.repository';
import { ActionRunsService } from './action-runs.service';
import { ActionRunEntity } from './entities/action-run.entity';
import { RunSweeper } from './run-sweeper.service';

/**
 * What agents do during replies: each action run, and a person's decision on the ones that wait
 * for approval. Replies run actions through the ActionRunner, and a decision lets the
 * conversation's reply continue, hence the forward references with the conversations.
 */
@Module({
  imports: [
    forwardRef(() => AgentsModule),
    IntegrationsModule,
    IdempotencyModule,
    forwardRef(() => ConversationsModule),
    WebhooksModule,
    TypeOrmModule.forFeature([ActionRunEntity]),
  ],
  controllers: [ActionRunsController],
  providers: [ActionRunsRepository, ActionRunner, ActionRunsService, RunSweeper],
  exports: [ActionRunner],
})
export class ActionRunsModule {}
