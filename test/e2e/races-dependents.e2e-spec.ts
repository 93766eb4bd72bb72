import { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { bearer } from '../support/bearer';
import { burst, BurstRequest, errorBody, tally } from '../support/burst';

describe('races between dependent writes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers each of 30 concurrent identical live-status changes with the state asked for, never a 409', async () => {
    const team = await t.createKey('go-live', ['*']);
    const agent = await createAgent(t, {}, team.key);
    const statuses: number[] = [];
    for (const status of ['live', 'paused', 'live', 'development']) {
      const responses = await burst(
        t.url,
        Array.from({ length: 30 }, () => ({
          method: 'PATCH' as const,
          path: `${API}/agents/${agent.id}/live-status`,
          headers: bearer(team.key),
          body: { status },
        })),
      );
      statuses.push(...responses.map((res) => res.status));
      expect(responses.map((res) => [res.status, res.body.data])).toEqual(
        responses.map(() => [200, { status, status_reason: null }]),
      );
    }
    process.stdout.write(`4 x 30 identical status changes: ${JSON.stringify(tally(statuses))}\n`);
  });

  it('creates agents on a workflow being deleted only while it exists: 201 or 404, never a 500, never an orphan', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 5; round++) {
      const team = await t.createKey(`vanishing-${round}`, ['*']);
      const workflow = await createWorkflow(t, { name: `Vanishing ${round}` }, team.key);
      const creates: BurstRequest[] = Array.from({ length: 20 }, (_, i) => ({
        method: 'POST',
        path: `${API}/agents`,
        headers: bearer(team.key),
        body: { workflow_id: workflow.id, name: `Agent ${i}`, description: 'Races a deletion' },
      }));
      // The deletion goes out at a different point of the burst each round.
      const deletion: BurstRequest = {
        method: 'DELETE',
        path: `${API}/workflows/${workflow.id}`,
        headers: bearer(team.key),
      };
      const position = round * 4;
      const responses = await burst(t.url, [
        ...creates.slice(0, position),
        deletion,
        ...creates.slice(position),
      ]);
      const deleted = responses.splice(position, 1)[0];
      outcomes.push(`delete ${deleted.status}`, ...responses.map((res) => `create ${res.status}`));

      const agents = await t
        .dataSource()
        .getRepository(AgentEntity)
        .countBy({ workflowId: workflow.id });
      const exists = await t
        .dataSource()
        .getRepository(WorkflowEntity)
        .existsBy({ id: workflow.id });
      expect(responses.filter((res) => res.status === 201)).toHaveLength(agents);
      for (const res of responses.filter((r) => r.status !== 201)) {
        expect(res.body).toEqual(errorBody(res, 404, 'not_found'));
      }
      if (deleted.status === 200) {
        expect({ agents, exists }).toEqual({ agents: 0, exists: false });
      } else {
        expect(deleted.body).toEqual(errorBody(deleted, 409, 'conflict'));
        expect(exists).toBe(true);
      }
    }
    process.stdout.write(`5 deletions vs 100 creates: ${JSON.stringify(tally(outcomes))}\n`);
  });
});
