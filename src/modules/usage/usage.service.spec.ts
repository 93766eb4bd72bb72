import { Logger } from '@nestjs/common';
import type { AppConfig } from '@/config/app-config';
import type { AgentsService } from '@/modules/agents/agents.service';
import type { ModelCallEntity } from './entities/model-call.entity';
import type { ModelCallMetrics } from './model-call.metrics';
import type { ModelCallsRepository } from './model-calls.repository';
import { ModelCall, UsageService } from './usage.service';

const CALL: ModelCall = {
  origin: { teamId: 't1', agentId: 'a1', conversationId: 'c1' },
  model: 'test-model',
  promptTokens: 120,
  completionTokens: 30,
  latencyMs: 850,
  ok: true,
};

function serviceWith(record: (row: ModelCallEntity) => Promise<void>) {
  const metrics = { observe: jest.fn() };
  const service = new UsageService(
    { record } as unknown as ModelCallsRepository,
    metrics as unknown as ModelCallMetrics,
    {} as AgentsService,
    { reports: { timeZone: 'UTC' } } as AppConfig,
  );
  return { service, metrics };
}

describe('UsageService.record', () => {
  afterEach(() => jest.restoreAllMocks());

  it('writes one row against the team, agent and conversation, and measures the call', async () => {
    const rows: ModelCallEntity[] = [];
    const { service, metrics } = serviceWith(async (row) => {
      rows.push(row);
    });
    await service.record({ ...CALL, model: 'm'.repeat(300) });
    expect(rows).toEqual([
      expect.objectContaining({
        teamId: 't1',
        agentId: 'a1',
        conversationId: 'c1',
        model: 'm'.repeat(255),
        promptTokens: 120,
        completionTokens: 30,
        latencyMs: 850,
        ok: true,
      }),
    ]);
    expect(metrics.observe).toHaveBeenCalledTimes(1);
  });

  it('never fails the reply: a row that cannot be written is logged, the call still measured', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { service, metrics } = serviceWith(() =>
      Promise.reject(new Error('FOREIGN KEY constraint failed')),
    );
    await expect(service.record(CALL)).resolves.toBeUndefined();
    expect(metrics.observe).toHaveBeenCalledWith(CALL);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ conversation_id: 'c1' }),
      'A model call could not be recorded',
    );
  });
});
