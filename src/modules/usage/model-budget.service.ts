import { Injectable, Logger } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { BudgetNoticeEntity } from './entities/budget-notice.entity';
import { ModelCallsRepository } from './model-calls.repository';
import type { ModelCallOrigin } from './usage.service';

/** What `usage.budget_exceeded` carries (docs/api.md §5b). */
export interface BudgetExceeded {
  month: string;
  monthly_token_budget: number;
  used_tokens: number;
  agent_id: string;
  conversation_id: string;
}

/**
 * A team's monthly token budget (docs/api.md §5b): the month is the calendar month in UTC, its
 * tokens the prompt + completion tokens of the team's model calls since it began. Summed afresh
 * for each reply that would use the model (an indexed range of one team's rows): a cached sum
 * would let every instance overspend for as long as it was kept.
 */
@Injectable()
export class ModelBudget {
  private readonly logger = new Logger(ModelBudget.name);

  constructor(
    private readonly db: Database,
    private readonly calls: ModelCallsRepository,
    private readonly webhooks: WebhookEvents,
  ) {}

  /**
   * Whether the reply of `origin` may use the model under `budget` (null: no budget). The first
   * reply refused it in a month announces it, once for the team whichever instance runs it.
   */
  async allows(origin: ModelCallOrigin, budget: number | null, now = new Date()): Promise<boolean> {
    if (budget === null) {
      return true;
    }
    const month = now.toISOString().slice(0, 7);
    const used = await this.calls.tokensSince(origin.teamId, new Date(`${month}-01T00:00:00Z`));
    if (used < budget) {
      return true;
    }
    await this.announce(origin, {
      month,
      monthly_token_budget: budget,
      used_tokens: used,
      agent_id: origin.agentId,
      conversation_id: origin.conversationId,
    });
    return false;
  }

  /**
   * The month's notice row and its event in one transaction: the row's key lets only the first
   * writer emit. Never throws: the reply goes on without the model either way, and a notice that
   * could not be written is tried again by the next reply refused.
   */
  private async announce(origin: ModelCallOrigin, exceeded: BudgetExceeded): Promise<void> {
    try {
      await this.db.transaction(async () => {
        const notice: BudgetNoticeEntity = {
          teamId: origin.teamId,
          month: exceeded.month,
          createdAt: new Date(),
        };
        if (await this.db.insert(BudgetNoticeEntity, [notice], { orIgnore: true })) {
          await this.webhooks.emit(origin.teamId, 'usage.budget_exceeded', exceeded);
        }
      });
    } catch (error) {
      this.logger.warn(
        { err: error, team_id: origin.teamId, month: exceeded.month },
        'The budget notice could not be written; the next reply refused the model tries again',
      );
    }
  }
}
