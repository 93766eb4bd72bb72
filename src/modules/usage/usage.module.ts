import { Module } from '@nestjs/common';
import { AgentsModule } from '@/modules/agents/agents.module';
import { ModelCallMetrics } from './model-call.metrics';
import { ModelCallsRepository } from './model-calls.repository';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/**
 * The model's usage: each call recorded against its team, agent and conversation (by the replies
 * module above, which makes them), GET /usage, and the sums a conversation's detail shows.
 */
@Module({
  imports: [AgentsModule],
  controllers: [UsageController],
  providers: [ModelCallsRepository, ModelCallMetrics, UsageService],
  exports: [UsageService],
})
export class UsageModule {}
