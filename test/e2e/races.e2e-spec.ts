import { IdempotencyRecordEntity } from '@/common/idempotency/idempotency-record.entity';
import { STREAM_SLOTS, StreamSlots } from '@/common/state/ports';
import { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { createAgent } from '../factories/agents';
import { conversationsPath, issueTicket } from '../factories/conversations';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { bearer } from '../support/bearer';
import { burst, errorBody, tally } from '../support/burst';
import { report } from '../support/report';
import { openStream } from '../support/sse-client';
import { pollUntil } from '../support/wait';

const QUOTA = 10;

describe('races over real HTTP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ AGENT_QUOTA: String(QUOTA) });
  });
  afterAll(() => t.close());

  /** A conversation of a new agent of `team` where nothing happens while streams are opened. */
  async function quietConversation(team: TeamKey) {
    const agent = await createAgent(t, {}, team.key);
    // An operator's message gets no reply.
    const message = await t
      .api(team.key)
      .post(`${conversationsPath(agent.id)}/messages`)
      .send({ message: 'Hi', role: 'assistant', channel_type: 'webchat', channel_user_id: 'u' })
      .expect(201);
    return {
      agentId: agent.id as string,
      conversationId: message.body.data.conversation_id as string,
    };
  }

  it('creates one record from 100 concurrent POSTs with one Idempotency-Key; the other 99 replay it or get 409', async () => {
    const team = await t.createKey('same-key', ['*']);
    const body = { name: 'Burst', description: 'One of a hundred', tags: ['race'] };
    const responses = await burst(
      t.url,
      Array.from({ length: 100 }, () => ({
        method: 'POST' as const,
        path: `${API}/workflows`,
        headers: { ...bearer(team.key), 'idempotency-key': 'burst-1' },
        body,
      })),
    );

    const replayed = responses.filter((res) => res.headers['idempotent-replayed'] === 'true');
    const created = responses.filter(
      (res) => res.status === 201 && res.headers['idempotent-replayed'] === undefined,
    );
    const refused = responses.filter((res) => res.status === 409);
    report('race', '100 same-key POSTs', {
      created: created.length,
      replayed: replayed.length,
      conflict409: refused.length,
    });
    expect(created).toHaveLength(1);
    expect(replayed.length + refused.length).toBe(99);
    for (const res of replayed) {
      expect(res.status).toBe(201);
      expect(res.text).toBe(created[0].text);
    }
    for (const res of refused) {
      expect(res.body).toEqual(errorBody(res, 409, 'conflict'));
    }

    const workflows = await t
      .dataSource()
      .getRepository(WorkflowEntity)
      .findBy({ teamId: team.teamId });
    expect(workflows.map((workflow) => workflow.id)).toEqual([created[0].body.data.id]);
    const keys = await t
      .dataSource()
      .getRepository(IdempotencyRecordEntity)
      .findBy({ teamId: team.teamId });
    expect(keys.map((key) => [key.key, key.state, key.responseStatus])).toEqual([
      ['burst-1', 'done', 201],
    ]);
  });

  const closeAll = async (connections: Awaited<ReturnType<typeof openStream>>[]) => {
    connections.forEach((connection) => connection.close());
    await Promise.all(connections.map((connection) => connection.closed));
  };

  /** Every stream slot of the key is given back once its connections are closed. */
  const expectSlotsReleased = async (keyId: string) => {
    const slots = t.app.get<StreamSlots>(STREAM_SLOTS);
    const released = await pollUntil(
      () => slots.held(keyId),
      (held) => held === 0,
      5000,
    );
    expect(released.value).toBe(0);
  };

  it('opens exactly one of 100 concurrent streams with one ticket and refuses the rest with 404', async () => {
    const team = await t.createKey('one-ticket', ['*']);
    const { agentId, conversationId } = await quietConversation(team);
    const ticket = await issueTicket(t, agentId, conversationId, team.key);
    const url = `${t.url}${conversationsPath(agentId)}/${conversationId}/stream?ticket=${ticket}`;

    const connections = await Promise.all(Array.from({ length: 100 }, () => openStream(url)));
    try {
      const opened = connections.filter((c) => c.status === 200);
      const refused = connections.filter((c) => c.status === 404);
      report('race', '100 opens with one ticket', tally(connections.map((c) => c.status)));
      expect(opened).toHaveLength(1);
      expect(opened[0].headers['content-type']).toMatch(/^text\/event-stream/);
      expect(refused).toHaveLength(99);
      for (const res of refused) {
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual(errorBody(res, 404, 'not_found'));
      }
    } finally {
      await closeAll(connections);
    }
    await expectSlotsReleased(team.keyId);
  });

  it('opens exactly the per-key limit of 40 concurrent streams, each with its own ticket, and refuses the rest with 429', async () => {
    const limit = 25;
    const team = await t.createKey('stream-limit', ['*']);
    const { agentId, conversationId } = await quietConversation(team);
    const tickets: string[] = [];
    for (let i = 0; i < 40; i++) {
      tickets.push(await issueTicket(t, agentId, conversationId, team.key));
    }
    const url = `${t.url}${conversationsPath(agentId)}/${conversationId}/stream?ticket=`;

    const connections = await Promise.all(tickets.map((ticket) => openStream(url + ticket)));
    try {
      report('race', '40 opens, limit 25', tally(connections.map((c) => c.status)));
      expect(connections.filter((c) => c.status === 200)).toHaveLength(limit);
      const refused = connections.filter((c) => c.status !== 200);
      expect(refused).toHaveLength(40 - limit);
      for (const res of refused) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(res.body).toEqual({
          message: expect.any(String),
          error: 'Too Many Requests',
          code: 'too_many_requests',
          statusCode: 429,
        });
      }
    } finally {
      await closeAll(connections);
    }
    await expectSlotsReleased(team.keyId);
  });

  it('never lets 50 concurrent agent creates at the quota boundary go over the quota', async () => {
    const team: TeamKey = await t.createKey('quota', ['*']);
    const workflow = await createWorkflow(t, { name: 'Quota workflow' }, team.key);
    const existing = QUOTA - 3;
    for (let i = 0; i < existing; i++) {
      await createAgent(t, { workflow_id: workflow.id, name: `Existing ${i}` }, team.key);
    }

    const responses = await burst(
      t.url,
      Array.from({ length: 50 }, (_, i) => ({
        method: 'POST' as const,
        path: `${API}/agents`,
        headers: bearer(team.key),
        body: { workflow_id: workflow.id, name: `Racer ${i}`, description: 'Races for a seat' },
      })),
    );

    report('race', '50 creates, 3 seats left', tally(responses.map((res) => res.status)));
    expect(responses.filter((res) => res.status === 201)).toHaveLength(QUOTA - existing);
    const refused = responses.filter((res) => res.status !== 201);
    expect(refused).toHaveLength(50 - (QUOTA - existing));
    for (const res of refused) {
      expect(res.body).toEqual(errorBody(res, 403, 'agent_limit_reached'));
    }
    expect(await t.dataSource().getRepository(AgentEntity).countBy({ teamId: team.teamId })).toBe(
      QUOTA,
    );
  });

  it('leaves a workflow patched by 25 concurrent requests exactly as one of them wrote it, never a mix', async () => {
    const team = await t.createKey('patches', ['*']);
    const workflow = await createWorkflow(t, { name: 'Contested' }, team.key);
    const bodies = Array.from({ length: 25 }, (_, i) => ({
      name: `Writer ${i}`,
      description: `Written by ${i}`,
      category: `category-${i}`,
      system_prompt: `Prompt of writer ${i}`,
      tags: [`tag-${i}`, `other-${i}`],
      rules: [
        {
          id: `rule-${i}`,
          name: `Rule ${i}`,
          trigger: `word-${i}`,
          condition: 'always',
          response: `Reply ${i}`,
          action: 'reply',
          enabled: i % 2 === 0,
        },
      ],
      prompt_config: { writer: i },
    }));
    const fieldsOf = (record: Record<string, unknown>) =>
      Object.fromEntries(Object.keys(bodies[0]).map((field) => [field, record[field]]));

    const responses = await burst(
      t.url,
      bodies.map((body) => ({
        method: 'PATCH' as const,
        path: `${API}/workflows/${workflow.id}`,
        headers: bearer(team.key),
        body,
      })),
    );

    expect(responses.map((res) => res.status)).toEqual(bodies.map(() => 200));
    // Each response reads the workflow after its own write: whole, though maybe a later writer's.
    for (const res of responses) {
      expect(bodies).toContainEqual(fieldsOf(res.body.data));
    }
    const final = await t.api(team.key).get(`${API}/workflows/${workflow.id}`).expect(200);
    const winner = bodies.find((body) => body.name === final.body.data.name)!;
    expect(fieldsOf(final.body.data)).toEqual(winner);
    const stored = await t
      .dataSource()
      .getRepository(WorkflowEntity)
      .findOneByOrFail({ id: workflow.id });
    expect({
      name: stored.name,
      description: stored.description,
      category: stored.category,
      system_prompt: stored.systemPrompt,
      tags: stored.tags,
      rules: stored.rules,
      prompt_config: stored.promptConfig,
    }).toEqual(winner);
  });
});
