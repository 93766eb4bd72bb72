import { SecretBox } from '@/config/secret-box';
import { Database } from '@/database/database.service';
import { TeamModelSettingsEntity } from '@/modules/model-settings/entities/team-model-settings.entity';
import { BudgetNoticeEntity } from '@/modules/usage/entities/budget-notice.entity';
import { ModelCallEntity } from '@/modules/usage/entities/model-call.entity';
import { createAgent } from '../factories/agents';
import { allMessages, repliesSettled, sendAs } from '../factories/conversations';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { freePort } from '../support/free-port';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { recordSecret } from '../support/log-capture';
import { WebhookReceiver } from '../support/webhook-receiver';

const SETTINGS = `${API}/settings/model`;
const TEAM_KEY = 'sk-team-provider-key-0123456789';
const MODEL_ANSWER = 'Hello from the model.';
const HANDOFF =
  /^Thanks for your message\. Someone from the .+ team will get back to you shortly\.$/;

const ENVIRONMENT_SETTINGS = {
  source: 'environment',
  base_url: null,
  model: 'env-model',
  has_api_key: false,
  allowed_models: null,
  monthly_token_budget: null,
  updated_at: null,
};

describe('the team model settings (docs/api.md §5b)', () => {
  let t: TestApp;
  let environmentLlm: LlmStub;
  let teamLlm: LlmStub;
  let teams = 0;

  beforeAll(async () => {
    recordSecret('api key', TEAM_KEY);
    environmentLlm = await startLlmStub();
    teamLlm = await startLlmStub();
    t = await startTestApp({
      LLM_BASE_URL: environmentLlm.url,
      LLM_MODEL: 'env-model',
      LLM_TIMEOUT_MS: '3000',
      OUTBOUND_TIMEOUT_MS: '2000',
    });
  });
  afterAll(async () => {
    await t.close();
    await environmentLlm.close();
    await teamLlm.close();
  });
  beforeEach(() => {
    for (const stub of [environmentLlm, teamLlm]) {
      stub.requests.length = 0;
      stub.authorizations.length = 0;
      stub.modelsAuthorizations.length = 0;
      stub.usages.length = 0;
      stub.modelsStatus = 200;
    }
  });

  const newTeam = () => t.createKey(`model-team-${++teams}`, ['*']);

  async function agentOf(team: TeamKey, app = t): Promise<string> {
    const workflow = await createWorkflow(app, { name: 'Chat' }, team.key);
    return (await createAgent(app, { workflow_id: workflow.id, name: 'Chat' }, team.key))
      .id as string;
  }

  /** The text of the reply to `message`, once it is stored. */
  async function replyTo(team: TeamKey, agentId: string, user: string, message: string) {
    const sent = await sendAs(t, agentId, user, message, {}, team.key);
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, sent.conversation_id, team.key);
    return { conversationId: sent.conversation_id, text: messages.at(-1)!.message };
  }

  const ownProvider = (extra: Record<string, unknown> = {}) => ({
    base_url: teamLlm.url,
    api_key: TEAM_KEY,
    model: 'team-model',
    ...extra,
  });

  it("answers the environment's model, without its address, while the team has none", async () => {
    const team = await newTeam();
    const res = await t.api(team.key).get(SETTINGS).expect(200);
    expect(res.body.data).toEqual(ENVIRONMENT_SETTINGS);
  });

  it("calls the team's own provider with its key and model instead of the environment's, and never shows the key", async () => {
    const team = await newTeam();
    const other = await newTeam();
    const put = await t.api(team.key).put(SETTINGS).send(ownProvider()).expect(200);
    expect(put.body.data).toEqual({
      source: 'team',
      base_url: teamLlm.url,
      model: 'team-model',
      has_api_key: true,
      allowed_models: null,
      monthly_token_budget: null,
      updated_at: expect.any(String),
    });
    expect(teamLlm.modelsAuthorizations).toEqual([`Bearer ${TEAM_KEY}`]);
    const got = await t.api(team.key).get(SETTINGS).expect(200);
    expect(got.body.data).toEqual(put.body.data);
    expect(JSON.stringify(got.body)).not.toContain(TEAM_KEY);
    expect(JSON.stringify(put.body)).not.toContain(TEAM_KEY);

    const reply = await replyTo(team, await agentOf(team), 'ann', 'What do you sell?');
    expect(reply.text).toBe(MODEL_ANSWER);
    expect(teamLlm.requests.map((request) => request.model)).toEqual(['team-model']);
    expect(teamLlm.authorizations).toEqual([`Bearer ${TEAM_KEY}`]);
    expect(environmentLlm.requests).toEqual([]);
    const [call] = await t.app.get(Database).find(ModelCallEntity, { teamId: team.teamId });
    expect(call.model).toBe('team-model');

    // Another team keeps the environment's.
    expect((await t.api(other.key).get(SETTINGS).expect(200)).body.data).toEqual(
      ENVIRONMENT_SETTINGS,
    );
    await replyTo(other, await agentOf(other), 'bob', 'What do you sell?');
    expect(environmentLlm.requests.map((request) => request.model)).toEqual(['env-model']);
    expect(teamLlm.requests).toHaveLength(1);
  });

  it('keeps the stored key when a PUT names the same base URL without one', async () => {
    const team = await newTeam();
    await t.api(team.key).put(SETTINGS).send(ownProvider()).expect(200);
    const res = await t
      .api(team.key)
      .put(SETTINGS)
      .send({ base_url: teamLlm.url, model: 'team-model-2', monthly_token_budget: 1000 })
      .expect(200);
    expect(res.body.data).toMatchObject({
      source: 'team',
      model: 'team-model-2',
      has_api_key: true,
      monthly_token_budget: 1000,
    });
    expect(teamLlm.modelsAuthorizations).toEqual([`Bearer ${TEAM_KEY}`, `Bearer ${TEAM_KEY}`]);
    await t
      .api(team.key)
      .put(SETTINGS)
      .send({ base_url: environmentLlm.url, model: 'team-model' })
      .expect(400);
  });

  it('replays a PUT under its Idempotency-Key without asking the provider again', async () => {
    const team = await newTeam();
    const put = () =>
      t.api(team.key).put(SETTINGS).set('Idempotency-Key', 'settings-1').send(ownProvider());
    const first = await put().expect(200);
    const again = await put().expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect(teamLlm.modelsAuthorizations).toHaveLength(1);
    await t
      .api(team.key)
      .put(SETTINGS)
      .set('Idempotency-Key', 'settings-1')
      .send({ monthly_token_budget: 5 })
      .expect(422);
  });

  it('refuses a key the provider refuses (400), an unreachable provider (502) and half a provider (400), storing nothing', async () => {
    const team = await newTeam();
    teamLlm.modelsStatus = 401;
    const refused = await t.api(team.key).put(SETTINGS).send(ownProvider()).expect(400);
    expect(refused.body.code).toBe('validation_error');
    expect(JSON.stringify(refused.body.message)).toMatch(/api_key: the provider refused/);
    expect(JSON.stringify(refused.body)).not.toContain(TEAM_KEY);
    teamLlm.modelsStatus = 500;
    const failing = await t.api(team.key).put(SETTINGS).send(ownProvider()).expect(502);
    expect(JSON.stringify(failing.body)).not.toContain(TEAM_KEY);

    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const unreachable = await t
      .api(team.key)
      .put(SETTINGS)
      .send(ownProvider({ base_url: closed }))
      .expect(502);
    expect(unreachable.body.code).toBe('internal_error');
    expect(JSON.stringify(unreachable.body)).not.toContain(TEAM_KEY);

    const half = await t
      .api(team.key)
      .put(SETTINGS)
      .send({ base_url: teamLlm.url, monthly_token_budget: 10 })
      .expect(400);
    expect(half.body.message).toEqual([
      expect.stringMatching(/^api_key is required/),
      expect.stringMatching(/^model is required/),
    ]);
    await t.api(team.key).put(SETTINGS).send({ base_url: 'ftp://example.com/v1' }).expect(400);

    expect((await t.api(team.key).get(SETTINGS).expect(200)).body.data).toEqual(
      ENVIRONMENT_SETTINGS,
    );
  });

  it("goes back to the environment's provider on DELETE", async () => {
    const team = await newTeam();
    const agentId = await agentOf(team);
    await t
      .api(team.key)
      .put(SETTINGS)
      .send(ownProvider({ monthly_token_budget: 100_000 }))
      .expect(200);
    await replyTo(team, agentId, 'cat', 'Hello there?');
    expect(teamLlm.requests).toHaveLength(1);

    const deleted = await t.api(team.key).delete(SETTINGS).expect(200);
    expect(deleted.body.data).toBeNull();
    expect((await t.api(team.key).get(SETTINGS).expect(200)).body.data).toEqual(
      ENVIRONMENT_SETTINGS,
    );
    const reply = await replyTo(team, agentId, 'cat', 'Are you still there?');
    expect(reply.text).toBe(MODEL_ANSWER);
    expect(teamLlm.requests).toHaveLength(1);
    expect(environmentLlm.requests.map((request) => request.model)).toEqual(['env-model']);
  });

  it("refuses a workflow model outside the writing team's allowed models, at create, update and clone", async () => {
    const team = await newTeam();
    const owner = await newTeam();
    const res = await t
      .api(team.key)
      .put(SETTINGS)
      .send({ allowed_models: ['small', 'large'] })
      .expect(200);
    expect(res.body.data).toEqual({
      ...ENVIRONMENT_SETTINGS,
      allowed_models: ['small', 'large'],
      updated_at: expect.any(String),
    });
    const refused = await t
      .api(team.key)
      .post(`${API}/workflows`)
      .send({ name: 'Pricey', prompt_config: { model: 'huge' } })
      .expect(400);
    expect(refused.body.code).toBe('validation_error');
    expect(refused.body.message).toEqual([
      "prompt_config.model: must be one of the team's allowed_models (small, large)",
    ]);
    const workflow = await createWorkflow(
      t,
      { name: 'Thrifty', prompt_config: { model: 'small' } },
      team.key,
    );
    await t
      .api(team.key)
      .patch(`${API}/workflows/${workflow.id}`)
      .send({ prompt_config: { model: 'huge' } })
      .expect(400);
    await t
      .api(team.key)
      .patch(`${API}/workflows/${workflow.id}`)
      .send({ prompt_config: { model: 'large' } })
      .expect(200);

    // Another team's public workflow: its owner's settings allow it; a copy is the copier's.
    const shared = await createWorkflow(
      t,
      { name: 'Shared', visibility: 'public', prompt_config: { model: 'huge' } },
      owner.key,
    );
    await t
      .api(team.key)
      .post(`${API}/workflows/clone`)
      .send({ source_workflow_id: shared.id })
      .expect(400);
    await t
      .api(team.key)
      .put(SETTINGS)
      .send(ownProvider({ allowed_models: ['small'] }))
      .expect(400);

    // Running on that public workflow, the team's replies use its own default model.
    const agentId = (await createAgent(t, { workflow_id: shared.id, name: 'Borrower' }, team.key))
      .id as string;
    await replyTo(team, agentId, 'dot', 'Which one is cheapest?');
    expect(environmentLlm.requests.map((request) => request.model)).toEqual(['env-model']);
  });

  it('answers 403 to a key without the settings scopes', async () => {
    const team = await newTeam();
    const reader = await t.createKey(`model-team-${teams}`, ['settings:read']);
    const stranger = await t.createKey(`model-team-${teams}`, ['agents:read']);
    await t.api(reader.key).get(SETTINGS).expect(200);
    for (const write of [
      t.api(reader.key).put(SETTINGS).send({ monthly_token_budget: 1 }),
      t.api(reader.key).delete(SETTINGS),
    ]) {
      const res = await write.expect(403);
      expect(res.body.code).toBe('insufficient_scope');
    }
    await t.api(stranger.key).get(SETTINGS).expect(403);
    expect((await t.api(team.key).get(SETTINGS).expect(200)).body.data).toEqual(
      ENVIRONMENT_SETTINGS,
    );
  });

  describe('budgets', () => {
    let receiver: WebhookReceiver;
    let second: TestApp;

    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
      // A second instance on the same database: it must see the settings and the notice too.
      second = await startTestApp({
        DATABASE_URL: t.env.DATABASE_URL,
        CONSOLE_SECRET_KEY: t.env.CONSOLE_SECRET_KEY,
        CONSOLE_BOOTSTRAP_KEY: t.env.CONSOLE_BOOTSTRAP_KEY,
        LLM_BASE_URL: environmentLlm.url,
        LLM_MODEL: 'env-model',
        LLM_TIMEOUT_MS: '3000',
        OUTBOUND_TIMEOUT_MS: '2000',
      });
    });
    afterAll(async () => {
      await second.stop();
      await receiver.close();
    });

    it('answers without the model once the month reaches the budget, and says so once, on any instance', async () => {
      const team = await newTeam();
      await createWebhook(t, receiver.url, ['usage.budget_exceeded'], team.key);
      const agentId = await agentOf(team);
      await t
        .api(team.key)
        .put(SETTINGS)
        .send(ownProvider({ monthly_token_budget: 1 }))
        .expect(200);

      // Under the budget (nothing used yet): the model answers, and its tokens pass the budget.
      const first = await replyTo(team, agentId, 'eve', 'What do you sell?');
      expect(first.text).toBe(MODEL_ANSWER);
      expect(teamLlm.usages).toHaveLength(1);
      const used = teamLlm.usages[0].prompt_tokens + teamLlm.usages[0].completion_tokens;

      // Two replies at once, one through each instance: both without the model, one notice.
      const [a, b] = await Promise.all([
        sendAs(t, agentId, 'fay', 'And the prices?', {}, team.key),
        sendAs(second, agentId, 'gus', 'Do you deliver?', {}, team.key),
      ]);
      await repliesSettled(t);
      for (const sent of [a, b]) {
        const messages = await allMessages(t, agentId, sent.conversation_id, team.key);
        expect(messages.at(-1)!.message).toMatch(HANDOFF);
      }
      expect(teamLlm.requests).toHaveLength(1);
      const [event] = await receiver.waitFor((events) => events.length >= 1);
      expect(event.body).toMatchObject({
        type: 'usage.budget_exceeded',
        data: {
          month: new Date().toISOString().slice(0, 7),
          monthly_token_budget: 1,
          used_tokens: used,
          agent_id: agentId,
        },
      });
      expect([a.conversation_id, b.conversation_id]).toContain(event.body.data.conversation_id);

      const later = await replyTo(team, agentId, 'hal', 'Anyone?');
      expect(later.text).toMatch(HANDOFF);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.ofType('usage.budget_exceeded')).toHaveLength(1);
      const notices = await t.app.get(Database).find(BudgetNoticeEntity, { teamId: team.teamId });
      expect(notices.map((notice) => notice.month)).toEqual([event.body.data.month]);

      // Last month's tokens do not count: the model answers again.
      const lastMonth = new Date(`${event.body.data.month}-01T00:00:00Z`).getTime() - 86_400_000;
      await t.app
        .get(Database)
        .update(ModelCallEntity, { teamId: team.teamId }, { createdAt: new Date(lastMonth) });
      expect((await replyTo(team, agentId, 'ivy', 'Back again')).text).toBe(MODEL_ANSWER);
    });

    it("follows a budget on the environment's model, and leaves other teams alone", async () => {
      const team = await newTeam();
      const other = await newTeam();
      const res = await t.api(team.key).put(SETTINGS).send({ monthly_token_budget: 0 }).expect(200);
      expect(res.body.data).toEqual({
        ...ENVIRONMENT_SETTINGS,
        monthly_token_budget: 0,
        updated_at: expect.any(String),
      });
      expect((await replyTo(team, await agentOf(team), 'jon', 'Hello?')).text).toMatch(HANDOFF);
      expect(environmentLlm.requests).toEqual([]);
      expect((await replyTo(other, await agentOf(other), 'kim', 'Hello?')).text).toBe(MODEL_ANSWER);
      expect(environmentLlm.requests).toHaveLength(1);

      // A PUT on one instance holds on the other at once.
      await t.api(team.key).put(SETTINGS).send(ownProvider()).expect(200);
      expect((await second.api(team.key).get(SETTINGS).expect(200)).body.data.source).toBe('team');
    });
  });

  describe('with the outbound address guard on', () => {
    let guarded: TestApp;

    beforeAll(async () => {
      guarded = await startTestApp({
        LLM_BASE_URL: environmentLlm.url,
        LLM_MODEL: 'env-model',
        OUTBOUND_ALLOW_PRIVATE: 'false',
      });
    });
    afterAll(() => guarded.close());

    it("refuses a team's base URL on a private address, at PUT and when the model is called", async () => {
      const team = await guarded.createKey('guarded-team', ['*']);
      const res = await guarded.api(team.key).put(SETTINGS).send(ownProvider()).expect(400);
      expect(res.body.message).toEqual([expect.stringMatching(/^base_url: must not point to/)]);
      expect(teamLlm.modelsAuthorizations).toEqual([]);

      // Stored before the guard could see it (a name that resolved elsewhere then): refused
      // when called, and the reply goes on without the model. The environment's is the
      // operator's, on a private address too, and stays allowed.
      const now = new Date();
      await guarded.app.get(Database).insert(TeamModelSettingsEntity, [
        {
          id: crypto.randomUUID(),
          teamId: team.teamId,
          baseUrl: teamLlm.url,
          apiKey: guarded.app.get(SecretBox, { strict: false }).seal(TEAM_KEY),
          model: 'team-model',
          allowedModels: null,
          monthlyTokenBudget: null,
          createdAt: now,
          updatedAt: now,
        },
      ]);
      const workflow = await createWorkflow(guarded, { name: 'Chat' }, team.key);
      const agentId = (
        await createAgent(guarded, { workflow_id: workflow.id, name: 'Chat' }, team.key)
      ).id as string;
      const sent = await sendAs(guarded, agentId, 'lou', 'Hello?', {}, team.key);
      await repliesSettled(guarded);
      const messages = await allMessages(guarded, agentId, sent.conversation_id, team.key);
      expect(messages.at(-1)!.message).toMatch(HANDOFF);
      expect(teamLlm.requests).toEqual([]);

      await guarded.api(team.key).delete(SETTINGS).expect(200);
      const again = await sendAs(guarded, agentId, 'max', 'Hello again?', {}, team.key);
      await repliesSettled(guarded);
      const later = await allMessages(guarded, agentId, again.conversation_id, team.key);
      expect(later.at(-1)!.message).toBe(MODEL_ANSWER);
    });
  });
});
