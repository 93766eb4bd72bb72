import type { Database } from '@/database/database.service';
import type { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import type { BudgetNoticeEntity } from './entities/budget-notice.entity';
import { ModelBudget } from './model-budget.service';
import type { ModelCallsRepository } from './model-calls.repository';

const ORIGIN = { teamId: 't1', agentId: 'a1', conversationId: 'c1' };
const NOW = new Date('2026-11-27T10:00:00Z');

/** A budget over `used` tokens, whose notices table holds `months` (its key: the month). */
function budgetWith(used: number, months = new Set<string>()) {
  const since: Date[] = [];
  const emitted: Array<{ type: string; data: object }> = [];
  const db = {
    transaction: <T>(work: () => Promise<T>) => work(),
    insert: async (_entity: unknown, [notice]: BudgetNoticeEntity[]) => {
      if (months.has(notice.month)) {
        return 0;
      }
      months.add(notice.month);
      return 1;
    },
  };
  const calls = {
    tokensSince: async (_teamId: string, starts: Date) => {
      since.push(starts);
      return used;
    },
  };
  const webhooks = {
    emit: async (_teamId: string, type: string, data: object) => {
      emitted.push({ type, data });
    },
  };
  const budget = new ModelBudget(
    db as unknown as Database,
    calls as unknown as ModelCallsRepository,
    webhooks as unknown as WebhookEvents,
  );
  return { budget, since, emitted };
}

describe('ModelBudget.allows', () => {
  it('allows any use without a budget, summing nothing', async () => {
    const { budget, since } = budgetWith(10_000_000);
    expect(await budget.allows(ORIGIN, null, NOW)).toBe(true);
    expect(since).toEqual([]);
  });

  it('counts the calendar month in UTC, and allows it under the budget', async () => {
    const { budget, since, emitted } = budgetWith(999);
    expect(await budget.allows(ORIGIN, 1000, NOW)).toBe(true);
    expect(since).toEqual([new Date('2026-11-01T00:00:00Z')]);
    expect(emitted).toEqual([]);
  });

  it('refuses at the budget, and announces it once a month', async () => {
    const months = new Set<string>();
    const { budget, emitted } = budgetWith(1000, months);
    expect(await budget.allows(ORIGIN, 1000, NOW)).toBe(false);
    expect(await budget.allows(ORIGIN, 1000, NOW)).toBe(false);
    expect(emitted).toEqual([
      {
        type: 'usage.budget_exceeded',
        data: {
          month: '2026-11',
          monthly_token_budget: 1000,
          used_tokens: 1000,
          agent_id: 'a1',
          conversation_id: 'c1',
        },
      },
    ]);
    expect(await budget.allows(ORIGIN, 1000, new Date('2026-12-01T00:00:00Z'))).toBe(false);
    expect(emitted.map((event) => (event.data as { month: string }).month)).toEqual([
      '2026-11',
      '2026-12',
    ]);
  });

  it('refuses every use with a budget of 0', async () => {
    const { budget } = budgetWith(0);
    expect(await budget.allows(ORIGIN, 0, NOW)).toBe(false);
  });
});
