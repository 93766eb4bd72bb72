import { Injectable, Logger } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Principal } from '@/common/http/principal';
import { daysCovering } from '@/common/time/calendar-days';
import { AppConfig } from '@/config/app-config';
import { AgentsService } from '@/modules/agents/agents.service';
import { ConversationUsageDto, UsageQueryDto, UsageRowDto } from './dto/usage.dto';
import { ModelCallMetrics } from './model-call.metrics';
import { ModelCallsRepository } from './model-calls.repository';
import { usagePeriod } from './usage-period';

/** Where a model call was made: the reply of which conversation, of which agent and team. */
export interface ModelCallOrigin {
  teamId: string;
  agentId: string;
  conversationId: string;
}

/** One finished model call: tokens as the provider reported them (0 when it reported none). */
export interface ModelCall {
  origin: ModelCallOrigin;
  model: string;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  ok: boolean;
}

/** The model's usage: every call recorded, summed per conversation and over periods. */
@Injectable()
export class UsageService {
  private readonly logger = new Logger(UsageService.name);
  private readonly timeZone: string;

  constructor(
    private readonly calls: ModelCallsRepository,
    private readonly metrics: ModelCallMetrics,
    private readonly agents: AgentsService,
    config: AppConfig,
  ) {
    this.timeZone = config.reports.timeZone;
  }

  /**
   * Records `call` once it has returned, in a short write of its own. Never throws: the reply
   * the call was for goes on whether or not its bookkeeping could be written (its conversation
   * may have been deleted meanwhile).
   */
  async record(call: ModelCall): Promise<void> {
    this.metrics.observe(call);
    const { teamId, agentId, conversationId } = call.origin;
    try {
      await this.calls.record({
        id: newId(),
        teamId,
        agentId,
        conversationId,
        model: call.model.slice(0, 255),
        promptTokens: call.promptTokens,
        completionTokens: call.completionTokens,
        latencyMs: call.latencyMs,
        ok: call.ok,
        createdAt: new Date(),
      });
    } catch (error) {
      this.logger.warn(
        { err: error, conversation_id: conversationId },
        'A model call could not be recorded',
      );
    }
  }

  async conversationUsage(teamId: string, conversationId: string): Promise<ConversationUsageDto> {
    return this.calls.conversationTotals(teamId, conversationId);
  }

  async report(caller: Principal, query: UsageQueryDto): Promise<UsageRowDto[]> {
    const { starts, ends } = usagePeriod(query, new Date(), this.timeZone);
    const scope = await this.agents.scopeFor(caller, query.agent_id);
    const groupBy = query.group_by ?? 'day';
    switch (groupBy) {
      case 'day':
        return this.calls.byDay(scope, daysCovering(starts, ends, this.timeZone));
      case 'agent':
        return this.calls.byColumn(scope, 'agent_id', starts, ends);
      case 'model':
        return this.calls.byColumn(scope, 'model', starts, ends);
    }
  }

}
