import { Database } from '@/database/database.service';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { TeamsService } from '@/modules/auth/teams.service';
import { ModelCallEntity } from '@/modules/usage/entities/model-call.entity';
import { createAgent } from '../factories/agents';
import { allMessages, conversationsPath, repliesSettled, sendAs } from '../factories/conversations';
import { configureIntegration } from '../factories/integrations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { freePort } from '../support/free-port';
import { LlmStub, startLlmStub, Usage } from '../support/llm-stub';
import { recordSecret } from '../support/log-capture';
import { McpTestServer, startMcpTestServer } from '../support/mcp-test-server';

const USAGE = `${API}/usage`;
const HANDOFF =
  /^Thanks for your message\. Someone from the .+ team will get back to you shortly\.$/;

/** YYYY-MM-DD of `days` days from now, in UTC. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A period around now, whatever the month: the default one may end a moment after a call. */
const AROUND_NOW = `from=${dayFromNow(-1)}&to=${dayFromNow(2)}`;

interface UsageRow {
  key: string;
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  failed_calls: number;
}

function totals(usages: Usage[]) {
  return {
    model_calls: usages.length,
    prompt_tokens: usages.reduce((sum, usage) => sum + usage.prompt_tokens, 0),
    completion_tokens: usages.reduce((sum, usage) => sum + usage.completion_tokens, 0),
  };
}

/** `name{labels} value` of a Prometheus text exposition. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text
    .split('\n')
    .find((each) => each.startsWith(`${name}{`) && each.includes(labels));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('model usage (docs/api.md §5b)', () => {
  let t: TestApp;
  let llm: LlmStub;
  let mcp: McpTestServer;
  let metricsUrl: string;
  let workflowId: string;

  beforeAll(async () => {
    llm = await startLlmStub();
    mcp = await startMcpTestServer([
      {
        name: 'order_status',
        description: 'The status of an order',
        inputSchema: {
          type: 'object' as const,
          properties: { order_id: { type: 'string' } },
          required: ['order_id'],
        },
        call: (args) => `Order ${String(args.order_id)} shipped on Monday`,
      },
    ]);
    // A free port can be taken by another suite before the app listens on it: then another one.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      try {
        t = await startTestApp({
          LLM_BASE_URL: llm.url,
          LLM_MODEL: 'test-model',
          LLM_TIMEOUT_MS: '1500',
          OUTBOUND_TIMEOUT_MS: '1000',
          METRICS_PORT: String(port),
        });
        metricsUrl = `http://127.0.0.1:${port}/metrics`;
        break;
      } catch (error) {
        if (attempt === 3 || !String(error).includes('EADDRINUSE')) {
          throw error;
        }
      }
    }
    workflowId = (await createWorkflow(t, { name: 'Chat' })).id;
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await mcp.close();
  });
  beforeEach(() => {
    llm.behaviour = 'answer';
    llm.toolCall = null;
    llm.usages.length = 0;
  });

  const newAgent = async (name: string, key = t.key) =>
    (await createAgent(t, { workflow_id: workflowId, name }, key)).id as string;

  /** An agent whose workflow names its own model, with the MCP server's tool as its action. */
  async function agentWithTool(): Promise<string> {
    const workflow = await createWorkflow(t, {
      name: 'Shop',
      prompt_config: { model: 'tool-model' },
    });
    const agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Shop' })).id;
    const server = await configureIntegration(t, agentId, 'mcp_server', {
      name: 'Shop tools',
      server_url: `${mcp.url}/mcp`,
    });
    await t
      .api()
      .post(`${API}/agents/${agentId}/integrations/mcp_server/${server.id}/discover`)
      .expect(200);
    return agentId;
  }

  const usage = async (query: string, key = t.key) =>
    (await t.api(key).get(`${USAGE}?${query}`).expect(200)).body.data;

  const detailUsage = async (agentId: string, conversationId: string) =>
    (
      await t
        .api()
        .get(`${conversationsPath(agentId)}/${conversationId}`)
        .expect(200)
    ).body.data.usage;

  it('records every model call with the tokens the provider reported, two for a reply with a tool call', async () => {
    const chat = await newAgent('Chat');
    const shop = await agentWithTool();

    const asked = await sendAs(t, chat, 'ann', 'What do you sell?');
    await repliesSettled(t);
    const chatCalls = [...llm.usages];
    expect(chatCalls).toHaveLength(1);

    llm.usages.length = 0;
    llm.toolCall = { name: 'order_status', arguments: { order_id: 'A1' } };
    const ordered = await sendAs(t, shop, 'bob', 'Where is my order A1?');
    await repliesSettled(t);
    const messages = await allMessages(t, shop, ordered.conversation_id);
    expect(messages.at(-1)!.message).toContain('Order A1 shipped on Monday');
    const shopCalls = [...llm.usages];
    expect(shopCalls).toHaveLength(2);

    expect(await detailUsage(chat, asked.conversation_id)).toEqual(totals(chatCalls));
    expect(await detailUsage(shop, ordered.conversation_id)).toEqual(totals(shopCalls));

    const byModel = await usage(`${AROUND_NOW}&group_by=model`);
    expect(byModel).toEqual([
      { key: 'test-model', ...totals(chatCalls), failed_calls: 0 },
      { key: 'tool-model', ...totals(shopCalls), failed_calls: 0 },
    ]);
    const byAgent = await usage(`${AROUND_NOW}&group_by=agent`);
    expect(byAgent).toEqual(
      expect.arrayContaining([
        { key: chat, ...totals(chatCalls), failed_calls: 0 },
        { key: shop, ...totals(shopCalls), failed_calls: 0 },
      ]),
    );
    // The agent rows come in the order of their ids.
    expect(byAgent.map((row: { key: string }) => row.key)).toEqual(
      byAgent.map((row: { key: string }) => row.key).sort(),
    );
    const mine = await usage(`${AROUND_NOW}&group_by=model&agent_id=${shop}`);
    expect(mine).toEqual([{ key: 'tool-model', ...totals(shopCalls), failed_calls: 0 }]);
  });

  it('records a failed call with no tokens, and the reply falls back as without usage', async () => {
    const agent = await newAgent('Failing');
    llm.behaviour = 'error';
    const sent = await sendAs(t, agent, 'cat', 'Are you there?');
    await repliesSettled(t);
    const messages = await allMessages(t, agent, sent.conversation_id);
    expect(messages.at(-1)!.message).toMatch(HANDOFF);
    expect(await detailUsage(agent, sent.conversation_id)).toEqual({
      model_calls: 1,
      prompt_tokens: 0,
      completion_tokens: 0,
    });
    expect(await usage(`${AROUND_NOW}&group_by=model&agent_id=${agent}`)).toEqual([
      {
        key: 'test-model',
        model_calls: 1,
        prompt_tokens: 0,
        completion_tokens: 0,
        failed_calls: 1,
      },
    ]);
    const [row] = await t.app.get(Database).find(ModelCallEntity, { agentId: agent });
    expect(row).toMatchObject({
      ok: false,
      model: 'test-model',
      conversationId: sent.conversation_id,
    });
  });

  it('keeps the tokens a provider reported with an answer it could not use', async () => {
    const agent = await newAgent('Empty');
    llm.behaviour = 'empty';
    const sent = await sendAs(t, agent, 'dan', 'Hello?');
    await repliesSettled(t);
    expect((await allMessages(t, agent, sent.conversation_id)).at(-1)!.message).toMatch(HANDOFF);
    expect(llm.usages).toHaveLength(1);
    expect(await usage(`${AROUND_NOW}&group_by=model&agent_id=${agent}`)).toEqual([
      { key: 'test-model', ...totals(llm.usages), failed_calls: 1 },
    ]);
  });

  it('measures the latency of a call that times out', async () => {
    const agent = await newAgent('Slow');
    llm.behaviour = 'hang';
    await sendAs(t, agent, 'eve', 'Anyone?');
    await repliesSettled(t);
    const [row] = await t.app.get(Database).find(ModelCallEntity, { agentId: agent });
    expect(row.ok).toBe(false);
    expect(row.latencyMs).toBeGreaterThanOrEqual(1400);
    expect(row.latencyMs).toBeLessThan(10_000);
  });

  it('gives zeros in the detail of a conversation the model never answered', async () => {
    const agent = await newAgent('Quiet');
    const sent = await sendAs(t, agent, 'fay', 'Thanks, bye', { role: 'assistant' });
    expect(await detailUsage(agent, sent.conversation_id)).toEqual({
      model_calls: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    });
  });

  it('groups by day of TEAM_TIME_ZONE, by default, with `to` excluded', async () => {
    const agent = await newAgent('Owl');
    const sent = await sendAs(t, agent, 'owl', 'Still open?');
    await repliesSettled(t);
    const call = totals(llm.usages);
    // 23:30 UTC on 10 March is already 11 March in Lagos (UTC+1).
    await t.app
      .get(Database)
      .update(
        ModelCallEntity,
        { conversationId: sent.conversation_id },
        { createdAt: new Date('2026-03-10T23:30:00Z') },
      );
    const query = `from=2026-03-10&to=2026-03-12&agent_id=${agent}`;
    expect(await usage(query)).toEqual([{ key: '2026-03-10', ...call, failed_calls: 0 }]);
    expect(await usage(`from=2026-03-10&to=2026-03-10T23:30:00Z&agent_id=${agent}`)).toEqual([]);
    // `from` is included, and a date-time may carry any offset.
    expect(
      await usage(`from=2026-03-10T23:30:00Z&to=2026-03-11T00:31:00%2B01:00&agent_id=${agent}`),
    ).toEqual([{ key: '2026-03-10', ...call, failed_calls: 0 }]);
    const lagos = await startTestApp({
      DATABASE_URL: t.env.DATABASE_URL,
      TEAM_TIME_ZONE: 'Africa/Lagos',
    });
    try {
      const res = await lagos.api(t.key).get(`${USAGE}?${query}&group_by=day`).expect(200);
      expect(res.body.data).toEqual([{ key: '2026-03-11', ...call, failed_calls: 0 }]);
    } finally {
      await lagos.stop();
    }
  });

  it('covers this calendar month by default', async () => {
    const agent = await newAgent('Monthly');
    const before = new Date().toISOString().slice(0, 10);
    await sendAs(t, agent, 'gus', 'How much is it?');
    await repliesSettled(t);
    const rows = await usage(`agent_id=${agent}`);
    // Unless a month (UTC, the app's TEAM_TIME_ZONE) ended meanwhile.
    if (new Date().toISOString().slice(0, 7) === before.slice(0, 7)) {
      expect(rows).toEqual([{ key: before, ...totals(llm.usages), failed_calls: 0 }]);
    }
    expect(await usage(`from=2020-01-01&to=2020-02-01&agent_id=${agent}`)).toEqual([]);
  });

  it("shows another team nothing, and answers 404 for another team's agent", async () => {
    const mine = await newAgent('Mine');
    await sendAs(t, mine, 'hal', 'Hello there');
    await repliesSettled(t);
    const outsider = await t.createKey('usage-outsider', ['*']);
    for (const groupBy of ['day', 'agent', 'model']) {
      expect(await usage(`${AROUND_NOW}&group_by=${groupBy}`, outsider.key)).toEqual([]);
    }
    await t.api(outsider.key).get(`${USAGE}?agent_id=${mine}`).expect(404);
    const theirs = await createAgent(t, {}, outsider.key);
    await t.api().get(`${USAGE}?agent_id=${theirs.id}`).expect(404);
  });

  it("gives a key limited to agents its agents' usage only", async () => {
    const seen = await newAgent('Seen');
    const hidden = await newAgent('Hidden');
    for (const agent of [seen, hidden]) {
      await sendAs(t, agent, 'ivy', 'What time is it?');
    }
    await repliesSettled(t);
    const teamId = (await t.app.get(TeamsService).findByName('default'))!.id;
    const created = await t.app
      .get(ApiKeysService)
      .createForAgents(teamId, ['settings:read'], [seen]);
    if ('notAgents' in created) {
      throw new Error('not agents');
    }
    recordSecret('api key', created.key);
    const rows = await usage(`${AROUND_NOW}&group_by=agent`, created.key);
    expect(rows.map((row: { key: string }) => row.key)).toEqual([seen]);
    await t.api(created.key).get(`${USAGE}?agent_id=${hidden}`).expect(404);
  });

  it('needs settings:read', async () => {
    const reader = await t.createKey('default', ['conversations:read']);
    await t.api(reader.key).get(USAGE).expect(403);
    const settings = await t.createKey('default', ['settings:read']);
    await t.api(settings.key).get(USAGE).expect(200);
  });

  it.each([
    ['from=2026-1-1', 'from'],
    ['from=2026-02-30', 'from'],
    ['from=yesterday', 'from'],
    ['from=2026-11-01T10:00:00', 'from'],
    ['to=2026-11-01T25:00:00Z', 'to'],
    ['from=2026-03-02&to=2026-03-02', 'to'],
    ['from=2026-03-02&to=2026-03-01', 'to'],
    ['from=2026-01-01&to=2027-01-03', 'to'],
    ['from=1999-12-31&to=2000-01-02', 'from'],
    ['group_by=week', 'group_by'],
    ['agent_id=nope', 'agent_id'],
    ['team=x', 'team'],
  ])('refuses %s naming %s', async (query, field) => {
    const res = await t.api().get(`${USAGE}?${query}`).expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(field);
  });

  it('covers 366 days at most', async () => {
    await t.api().get(`${USAGE}?from=2027-01-01&to=2028-01-02`).expect(200);
  });

  it('exposes call durations, tokens and failures by model as metrics', async () => {
    const text = await (await fetch(metricsUrl)).text();
    const rows: Record<string, UsageRow> = Object.fromEntries(
      (await usage(`${AROUND_NOW}&group_by=model`)).map((row: UsageRow) => [row.key, row]),
    );
    // The metrics count every call of this app, the one moved to March too.
    const [march]: UsageRow[] = await usage('from=2026-03-10&to=2026-03-12&group_by=model');
    const model = 'model="test-model"';
    expect(sample(text, 'console_model_call_duration_seconds_count', model)).toBe(
      rows['test-model'].model_calls + march.model_calls,
    );
    expect(sample(text, 'console_model_prompt_tokens_total', model)).toBe(
      rows['test-model'].prompt_tokens + march.prompt_tokens,
    );
    expect(sample(text, 'console_model_completion_tokens_total', model)).toBe(
      rows['test-model'].completion_tokens + march.completion_tokens,
    );
    expect(sample(text, 'console_model_call_failures_total', model)).toBe(
      rows['test-model'].failed_calls,
    );
    expect(sample(text, 'console_model_call_duration_seconds_count', 'model="tool-model"')).toBe(
      rows['tool-model'].model_calls,
    );
    expect(sample(text, 'console_model_call_failures_total', 'model="tool-model"')).toBe(0);
  });

  // Last: the metrics above count calls that this deletes.
  it('keeps the calls until their agent is deleted', async () => {
    const agent = await newAgent('Gone');
    await sendAs(t, agent, 'jon', 'Do you deliver?');
    await repliesSettled(t);
    const db = t.app.get(Database);
    expect(await db.count(ModelCallEntity, { agentId: agent })).toBe(1);
    await t.api().delete(`${API}/agents/${agent}`).expect(200);
    expect(await db.count(ModelCallEntity, { agentId: agent })).toBe(0);
    const keys = (await usage(`${AROUND_NOW}&group_by=agent`)).map((row: UsageRow) => row.key);
    expect(keys).not.toContain(agent);
  });
});
