import { Module } from '@nestjs/common';
import { AgentsModule } from '@/modules/agents/agents.module';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { ModelBudget } from './model-budget.service';
import { ModelCallMetrics } from './model-call.metrics';
import { ModelCallsRepository } from './model-calls.repository';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/**
 * The model's usage: each call recorded against its team, agent and conversation (by the replies
 * module above, which makes them), GET /usage, the sums a conversation's detail shows, and the
 * teams' monthly token budgets.
 */
@Module({
  imports: [AgentsModule, WebhooksModule],
  controllers: [UsageController],
  providers: [ModelCallsRepository, ModelCallMetrics, UsageService, ModelBudget],
  exports: [UsageService, ModelBudget],
})
export class UsageModule {}
