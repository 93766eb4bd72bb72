import { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { bearer } from '../support/bearer';
import { burst, BurstRequest, BurstResponse, errorBody, tally } from '../support/burst';
import { report } from '../support/report';
import { configureIntegration } from '../factories/integrations';

/** Records created under an agent, one kind per path. */
const AGENT_CHILDREN: Array<[string, object]> = [
  ['/knowledge_bases', { type: 'text', name: 'Notes', content: 'Text' }],
  [
    '/conversations/messages',
    { message: 'Hi', role: 'assistant', channel_type: 'webchat', channel_user_id: 'u' },
  ],
  ['/integrations/custom_api/configure', { name: 'API', base_url: 'http://127.0.0.1:9' }],
  ['/integrations/mcp_server/configure', { name: 'MCP', server_url: 'http://127.0.0.1:9/mcp' }],
  ['/integrations/bimpeai/configure', { type: 'stripe', secret_key: 'sk_x' }],
  ['/integrations/pipedream/configure', { app_slug: 'slack' }],
];

/** The burst with `deletion` slotted in at `position` (a different point each round), and a way to take its answer back out. */
function withDeletionAt(requests: BurstRequest[], deletion: BurstRequest, position: number) {
  return {
    requests: [...requests.slice(0, position), deletion, ...requests.slice(position)],
    split: (responses: BurstResponse[]) => ({
      deleted: responses[position],
      others: responses.filter((_, index) => index !== position),
    }),
  };
}

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
    report('race', '4 x 30 identical status changes', tally(statuses));
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
      const { requests, split } = withDeletionAt(
        creates,
        { method: 'DELETE', path: `${API}/workflows/${workflow.id}`, headers: bearer(team.key) },
        round * 4,
      );
      const { deleted, others: responses } = split(await burst(t.url, requests));
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
    report('race', '5 deletions vs 100 creates', tally(outcomes));
  });

  it("never leaves another team's agent on a workflow its owner makes private or deletes meanwhile: each lands on its team's one copy or is refused with 404", async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      const owner = await t.createKey(`withdrawing-${round}`, ['*']);
      const user = await t.createKey(`using-${round}`, ['*']);
      const shared = await createWorkflow(
        t,
        { name: `Withdrawn ${round}`, visibility: 'public' },
        owner.key,
      );
      const elsewhere = await Promise.all(
        Array.from({ length: 4 }, () => createAgent(t, {}, user.key)),
      );
      // Every fourth request moves an existing agent onto the workflow, the others create one.
      const onto: BurstRequest[] = Array.from({ length: 16 }, (_, i) =>
        i % 4 === 0
          ? {
              method: 'PATCH',
              path: `${API}/agents/${elsewhere[i / 4].id}`,
              headers: bearer(user.key),
              body: { workflow_id: shared.id },
            }
          : {
              method: 'POST',
              path: `${API}/agents`,
              headers: bearer(user.key),
              body: {
                workflow_id: shared.id,
                name: `Agent ${i}`,
                description: 'Races a withdrawal',
              },
            },
      );
      const withdrawal: BurstRequest =
        round % 2 === 0
          ? {
              method: 'PATCH',
              path: `${API}/workflows/${shared.id}`,
              headers: bearer(owner.key),
              body: { visibility: 'private', system_prompt: 'Confidential' },
            }
          : { method: 'DELETE', path: `${API}/workflows/${shared.id}`, headers: bearer(owner.key) };
      const { requests, split } = withDeletionAt(onto, withdrawal, round * 3);
      const { deleted: withdrawn, others } = split(await burst(t.url, requests));
      outcomes.push(
        ...others.map((res, i) => `${onto[i].method === 'POST' ? 'create' : 'move'} ${res.status}`),
      );

      expect(withdrawn.status).toBe(200);
      for (const res of others.filter((r) => r.status >= 400)) {
        expect(res.body).toEqual(errorBody(res, 404, 'not_found'));
      }
      const agents = await t
        .dataSource()
        .getRepository(AgentEntity)
        .findBy({ teamId: user.teamId });
      const copies = await t
        .dataSource()
        .getRepository(WorkflowEntity)
        .findBy({ teamId: user.teamId, name: shared.name });
      const putOnto = others.filter((res) => res.status < 300).map((res) => res.body.data.id);
      const landed = agents.filter((agent) => agent.workflowId === copies[0]?.id);
      expect(landed.map((agent) => agent.id).sort()).toEqual(putOnto.sort());
      expect(copies.map((copy) => copy.systemPrompt)).toEqual(putOnto.length ? [null] : []);
    }
    report('race', '6 withdrawals vs 96 agents put on the workflow', tally(outcomes));
  });

  it('creates records under an agent being deleted only while it exists: 201 or 404, never a 500, nothing left behind', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 4; round++) {
      const team = await t.createKey(`doomed-${round}`, ['*']);
      const agent = await createAgent(t, {}, team.key);
      const creates: BurstRequest[] = AGENT_CHILDREN.flatMap(([path, body]) =>
        Array.from({ length: 4 }, () => ({
          method: 'POST' as const,
          path: `${API}/agents/${agent.id}${path}`,
          headers: bearer(team.key),
          body,
        })),
      );
      const { requests, split } = withDeletionAt(
        creates,
        { method: 'DELETE', path: `${API}/agents/${agent.id}`, headers: bearer(team.key) },
        round * 6,
      );
      const { deleted, others } = split(await burst(t.url, requests));

      outcomes.push(...others.map((res) => `create ${res.status}`));
      expect(deleted.status).toBe(200);
      for (const res of others.filter((r) => r.status !== 201)) {
        expect(res.body).toEqual(errorBody(res, 404, 'not_found'));
      }
      const left: Record<string, number> = {};
      for (const entity of t.dataSource().entityMetadatas) {
        if (entity.columns.some((column) => column.databaseName === 'agent_id')) {
          left[entity.tableName] = await t
            .dataSource()
            .getRepository(entity.target)
            .countBy({ agentId: agent.id });
        }
      }
      expect(Object.keys(left).length).toBeGreaterThan(4);
      expect(left).toEqual(Object.fromEntries(Object.keys(left).map((table) => [table, 0])));
    }
    report('race', '4 agent deletions vs 96 creates under them', tally(outcomes));
  });

  it('creates tools under an integration being deleted only while it exists: 201 or 404, never a 500', async () => {
    const team = await t.createKey('tools', ['*']);
    const agent = await createAgent(t, {}, team.key);
    const base = `${API}/agents/${agent.id}/integrations/custom_api`;
    const outcomes: string[] = [];
    for (let round = 0; round < 4; round++) {
      const api = await configureIntegration(
        t,
        agent.id,
        'custom_api',
        { name: 'API', base_url: 'http://127.0.0.1:9' },
        team.key,
      );
      const creates: BurstRequest[] = Array.from({ length: 20 }, (_, i) => ({
        method: 'POST',
        path: `${base}/${api.id}/tools`,
        headers: bearer(team.key),
        body: { name: `Tool ${i}`, http_method: 'GET', url_template: '/items' },
      }));
      const { requests, split } = withDeletionAt(
        creates,
        { method: 'DELETE', path: `${base}/${api.id}`, headers: bearer(team.key) },
        round * 5,
      );
      const { deleted, others } = split(await burst(t.url, requests));

      outcomes.push(...others.map((res) => `create ${res.status}`));
      expect(deleted.status).toBe(200);
      for (const res of others.filter((r) => r.status !== 201)) {
        expect(res.body).toEqual(errorBody(res, 404, 'not_found'));
      }
    }
    const actions = await t.api(team.key).get(`${API}/agents/${agent.id}/actions`).expect(200);
    expect(actions.body.data).toEqual([]);
    report('race', '4 integration deletions vs 80 tool creates', tally(outcomes));
  });
});
