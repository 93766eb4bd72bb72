import { Database } from '@/database/database.service';
import { WebhookEndpointEntity } from '@/modules/webhooks/entities/webhook-endpoint.entity';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled, sendAs, sendTo } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { ALL_EVENTS, createWebhook, deliveriesOf, WEBHOOKS } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { pollUntil } from '../support/wait';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';

const ESCALATING_WORKFLOW = {
  name: 'Desk',
  rules: [
    {
      name: 'Human',
      trigger: 'talk to a human',
      response: 'Connecting you to a person.',
      action: 'escalate',
      enabled: true,
    },
  ],
};

describe('webhooks', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let agentId: string;

  beforeAll(async () => {
    // A receiver that never answers holds a delivery for OUTBOUND_TIMEOUT_MS (10 s by default).
    t = await startTestApp({ WEBHOOK_FIRST_RETRY_S: '1', OUTBOUND_TIMEOUT_MS: '4000' });
    const workflow = await createWorkflow(t, ESCALATING_WORKFLOW);
    agentId = (await createAgent(t, { workflow_id: workflow.id })).id;
  });
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(() => receiver.close());
  afterAll(() => t.close());

  it('registers an endpoint, shows its secret only at creation, and lists it', async () => {
    const created = await createWebhook(t, receiver.url, ['message.created']);
    expect(created).toMatchObject({
      url: receiver.url,
      events: ['message.created'],
      description: null,
      is_enabled: true,
      disabled_reason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const read = await t.api().get(`${WEBHOOKS}/${created.id}`).expect(200);
    expect(read.body.data).not.toHaveProperty('secret');
    const list = await t.api().get(`${WEBHOOKS}?limit=100`).expect(200);
    expect(list.body.meta).toMatchObject({ current_page: 1, limit: 100 });
    const listed = list.body.data.find((w: { id: string }) => w.id === created.id);
    expect(listed).toEqual(read.body.data);

    const patched = await t
      .api()
      .patch(`${WEBHOOKS}/${created.id}`)
      .send({ description: 'CRM sync', events: ALL_EVENTS })
      .expect(200);
    expect(patched.body.data).toMatchObject({ description: 'CRM sync', events: ALL_EVENTS });
    expect(patched.body.data).not.toHaveProperty('secret');
    await t
      .api()
      .delete(`${WEBHOOKS}/${created.id}`)
      .expect(200, /"data":null/);
    await t.api().get(`${WEBHOOKS}/${created.id}`).expect(404);
  });

  it('refuses bad input with validation errors', async () => {
    const res = await t
      .api()
      .post(WEBHOOKS)
      .send({ url: 'ftp://example.com', events: ['message.created', 'nope'] })
      .expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.message).toEqual(
      expect.arrayContaining([
        'url: must be an http(s) URL',
        expect.stringMatching(/^events: each value must be one of: /),
      ]),
    );
    await t.api().post(WEBHOOKS).send({ url: receiver.url, events: [] }).expect(400);
    await t
      .api()
      .post(WEBHOOKS)
      .send({ url: 'http://169.254.169.254/latest', events: ['message.created'] })
      .expect(400, /url: must not point to/);
  });

  it('delivers every event type with a signature that verifies', async () => {
    const { secret, id } = await createWebhook(t, receiver.url);
    const sent = await sendAs(t, agentId, `u-${Date.now()}`, 'Can I talk to a human please?');
    await repliesSettled(t);
    await t
      .api()
      .patch(`${API}/agents/${agentId}/live-status`)
      .send({ status: 'live' })
      .expect(200);

    const events = await receiver.waitFor(
      (all) =>
        ALL_EVENTS.every((type) => all.some((event) => event.body.type === type)) &&
        all.filter((event) => event.body.type === 'message.created').length === 2,
    );
    for (const event of events) {
      expect(verifySignature(secret, event)).toBe(true);
      expect(verifySignature('whsec_other', event)).toBe(false);
      expect(event.headers['console-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(event.headers['content-type']).toBe('application/json');
      expect(event.headers['console-event-id']).toBe(event.body.id);
      expect(event.body.id).toMatch(/^evt_/);
      expect(new Date(event.body.created_at).toISOString()).toBe(event.body.created_at);
    }
    const [created] = receiver.ofType('conversation.created');
    expect(created.body.data).toMatchObject({ id: sent.conversation_id, agent_id: agentId });
    const messages = receiver.ofType('message.created').map((event) => event.body.data);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(messages[0]).toMatchObject({ id: sent.id, message: 'Can I talk to a human please?' });
    expect(messages[1]).toMatchObject({ message: 'Connecting you to a person.' });
    const [attention] = receiver.ofType('conversation.needs_attention');
    expect(attention.body.data).toMatchObject({ id: sent.conversation_id, needs_attention: true });
    const [status] = receiver.ofType('agent.status_changed');
    expect(status.body.data).toMatchObject({ id: agentId, status: 'live' });

    const log = await deliveriesOf(t, id);
    expect(log).toHaveLength(events.length);
    expect(log.every((delivery) => delivery.status === 'succeeded')).toBe(true);
    expect(log[0]).toEqual({
      id: expect.any(String),
      event_id: expect.stringMatching(/^evt_/),
      event_type: expect.any(String),
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      created_at: expect.any(String),
    });
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it('sends an event only to the endpoints that subscribe to it', async () => {
    const other = await WebhookReceiver.start();
    const statusOnly = await createWebhook(t, other.url, ['agent.status_changed']);
    const messages = await createWebhook(t, receiver.url, ['message.created']);
    await sendAs(t, agentId, `u-${Date.now()}`, 'hello there');
    await repliesSettled(t);
    await receiver.waitFor((all) => all.length === 2);
    await t.api().post(`${WEBHOOKS}/${statusOnly.id}/test`).expect(200);
    await other.waitFor((all) => all.length === 1);
    expect(other.received[0].body.type).toBe('ping');
    expect(receiver.received.map((event) => event.body.type)).toEqual([
      'message.created',
      'message.created',
    ]);
    await other.close();
    await t.api().delete(`${WEBHOOKS}/${statusOnly.id}`).expect(200);
    await t.api().delete(`${WEBHOOKS}/${messages.id}`).expect(200);
  });

  it('retries a 500: delivered twice, the log shows both attempts', async () => {
    const { id, secret } = await createWebhook(t, receiver.url);
    receiver.queue(500);
    const ping = await t.api().post(`${WEBHOOKS}/${id}/test`).expect(200);
    expect(ping.body.data).toMatchObject({ event_type: 'ping', status: 'pending' });

    const [first, second] = await receiver.waitFor((all) => all.length === 2, 15_000);
    expect(second.body.id).toBe(first.body.id);
    expect(second.rawBody).toBe(first.rawBody);
    expect(verifySignature(secret, second)).toBe(true);
    const { value } = await pollUntil(
      () => deliveriesOf(t, id),
      (log) => log[0]?.status === 'succeeded',
      5_000,
    );
    expect(value).toEqual([
      expect.objectContaining({
        id: ping.body.data.id,
        status: 'succeeded',
        attempts: 2,
        last_status_code: 200,
        last_error: null,
      }),
    ]);
    // The success ends the endpoint's failing streak (which would lead to its disabling).
    const endpoint = await t
      .dataSource()
      .getRepository(WebhookEndpointEntity)
      .findOneByOrFail({ id });
    expect(endpoint.failingSince).toBeNull();
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it('records a failed attempt with its status, error and next attempt', async () => {
    const { id } = await createWebhook(t, receiver.url);
    receiver.always(503);
    await t.api().post(`${WEBHOOKS}/${id}/test`).expect(200);
    const { value } = await pollUntil(
      () => deliveriesOf(t, id),
      (log) => log[0]?.attempts === 1 && log[0]?.last_status_code === 503,
      5_000,
    );
    expect(value[0]).toMatchObject({
      status: 'pending',
      last_status_code: 503,
      last_error: 'HTTP 503: nope',
    });
    expect(Date.parse(value[0].next_attempt_at)).toBeGreaterThan(Date.parse(value[0].created_at));
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it('redelivers a delivery on request (202), with the same event id', async () => {
    const { id } = await createWebhook(t, receiver.url);
    await t.api().post(`${WEBHOOKS}/${id}/test`).expect(200);
    await receiver.waitFor((all) => all.length === 1);
    const [delivery] = await pollUntil(
      () => deliveriesOf(t, id),
      (log) => log[0]?.status === 'succeeded',
      5_000,
    ).then(({ value }) => value);

    const res = await t
      .api()
      .post(`${WEBHOOKS}/${id}/deliveries/${delivery.id}/redeliver`)
      .expect(202);
    expect(res.body.data).toMatchObject({ id: delivery.id, status: 'pending' });
    await receiver.waitFor((all) => all.length === 2);
    expect(receiver.received[1].body.id).toBe(receiver.received[0].body.id);
    await t
      .api()
      .post(`${WEBHOOKS}/${id}/deliveries/00000000-0000-7000-8000-000000000000/redeliver`)
      .expect(404);
    await t.api().patch(`${WEBHOOKS}/${id}`).send({ is_enabled: false }).expect(200);
    await t.api().post(`${WEBHOOKS}/${id}/deliveries/${delivery.id}/redeliver`).expect(409);
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it('signs the next delivery with a rotated secret', async () => {
    const { id, secret } = await createWebhook(t, receiver.url);
    const rotated = await t.api().post(`${WEBHOOKS}/${id}/rotate-secret`).expect(200);
    const newSecret: string = rotated.body.data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await t.api().post(`${WEBHOOKS}/${id}/test`).expect(200);
    const [event] = await receiver.waitFor((all) => all.length === 1);
    expect(verifySignature(newSecret, event)).toBe(true);
    expect(verifySignature(secret, event)).toBe(false);
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it('sends nothing to a disabled endpoint', async () => {
    const { id } = await createWebhook(t, receiver.url, ['message.created']);
    await t.api().patch(`${WEBHOOKS}/${id}`).send({ is_enabled: false }).expect(200);
    await sendAs(t, agentId, `u-${Date.now()}`, 'hello');
    await repliesSettled(t);
    await t.api().post(`${WEBHOOKS}/${id}/test`).expect(409);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toEqual([]);
    expect(await deliveriesOf(t, id)).toEqual([]);
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it("sends a team's events to none of another team's endpoints", async () => {
    const other = await t.createKey('webhooks-other-team', ['*']);
    const theirs = await createWebhook(t, receiver.url, ALL_EVENTS, other.key);
    const ours = await WebhookReceiver.start();
    const ourEndpoint = await createWebhook(t, ours.url, ['message.created']);
    await sendAs(t, agentId, `u-${Date.now()}`, 'hello');
    await repliesSettled(t);
    await ours.waitFor((all) => all.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toEqual([]);
    expect(await deliveriesOf(t, theirs.id, other.key)).toEqual([]);
    await ours.close();
    await t.api().delete(`${WEBHOOKS}/${ourEndpoint.id}`).expect(200);
  });

  it('does not slow API requests when the receiver never answers', async () => {
    const { id } = await createWebhook(t, receiver.url, ['message.created']);
    receiver.always('hang');
    const conversation = (await sendAs(t, agentId, `u-${Date.now()}`, 'first')).conversation_id;
    const durations: number[] = [];
    for (let i = 0; i < 15; i++) {
      const started = Date.now();
      await sendTo(t, agentId, conversation, `message ${i}`, 'assistant');
      durations.push(Date.now() - started);
    }
    await receiver.waitFor((all) => all.length >= 10);
    // A request that waited for its delivery would take the whole 4 s timeout.
    expect(Math.max(...durations)).toBeLessThan(3_000);
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it("answers 404 for another team's endpoint and deliveries", async () => {
    const { id } = await createWebhook(t, receiver.url);
    await t.api().post(`${WEBHOOKS}/${id}/test`).expect(200);
    const [delivery] = await deliveriesOf(t, id);
    const other = await t.createKey('other-team', ['webhooks:read', 'webhooks:write']);
    const api = t.api(other.key);
    await api.get(`${WEBHOOKS}/${id}`).expect(404);
    await api.patch(`${WEBHOOKS}/${id}`).send({ description: 'x' }).expect(404);
    await api.post(`${WEBHOOKS}/${id}/rotate-secret`).expect(404);
    await api.post(`${WEBHOOKS}/${id}/test`).expect(404);
    await api.get(`${WEBHOOKS}/${id}/deliveries`).expect(404);
    await api.post(`${WEBHOOKS}/${id}/deliveries/${delivery.id}/redeliver`).expect(404);
    await api.delete(`${WEBHOOKS}/${id}`).expect(404);
    expect((await api.get(WEBHOOKS).expect(200)).body.data).toEqual([]);
    await t.api().get(`${WEBHOOKS}/${id}`).expect(200);
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it('requires the webhooks scopes', async () => {
    const reader = await t.createKey('default', ['webhooks:read']);
    await t.api(reader.key).get(WEBHOOKS).expect(200);
    const res = await t
      .api(reader.key)
      .post(WEBHOOKS)
      .send({ url: receiver.url, events: ['message.created'] })
      .expect(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope' });
    const agentsOnly = await t.createKey('default', ['agents:read']);
    await t.api(agentsOnly.key).get(WEBHOOKS).expect(403);
  });

  it('fails no change when an endpoint is deleted while events are written for it', async () => {
    const { id } = await createWebhook(t, receiver.url, ['message.created']);
    const posts = Array.from({ length: 60 }, (_, i) =>
      t
        .api()
        .post(`${conversationsPath(agentId)}/messages`)
        .send({
          message: `racing ${i}`,
          role: 'assistant',
          channel_type: 'webchat',
          channel_user_id: `racer-${i % 20}`,
        })
        .then((res) => res.status),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const deleted = await t.api().delete(`${WEBHOOKS}/${id}`);
    const answers = await Promise.all(posts);
    expect(deleted.status).toBe(200);
    expect(answers).toEqual(answers.map(() => 201));
  });

  it('emits nothing for a change that fails or changes nothing', async () => {
    await t
      .api()
      .patch(`${API}/agents/${agentId}/live-status`)
      .send({ status: 'live' })
      .expect(200);
    const { id } = await createWebhook(t, receiver.url);
    await t
      .api()
      .post(`${conversationsPath(agentId)}/00000000-0000-7000-8000-000000000000/messages`)
      .send({ message: 'lost' })
      .expect(404);
    await t
      .api()
      .patch(`${API}/agents/${agentId}/live-status`)
      .send({ status: 'live' })
      .expect(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toEqual([]);
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  it('writes events with the transaction of their change: a rollback emits nothing', async () => {
    const { id, teamId } = await createWebhookOfDefaultTeam();
    const db = t.app.get(Database);
    const events = t.app.get(WebhookEvents);
    await expect(events.emit(teamId, 'message.created', {})).rejects.toThrow(
      /outside a transaction/,
    );
    await expect(
      db.transaction(async () => {
        await events.emit(teamId, 'message.created', { n: 'rolled back' });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await db.transaction(() => events.emit(teamId, 'message.created', { n: 'committed' }));
    await receiver.waitFor((all) => all.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(receiver.received.map((event) => event.body.data)).toEqual([{ n: 'committed' }]);
    await t.api().delete(`${WEBHOOKS}/${id}`).expect(200);
  });

  async function createWebhookOfDefaultTeam() {
    const webhook = await createWebhook(t, receiver.url, ['message.created']);
    const row = await t
      .dataSource()
      .getRepository(WebhookEndpointEntity)
      .findOneByOrFail({ id: webhook.id });
    return { id: webhook.id, teamId: row.teamId };
  }
});

describe('webhooks to private addresses', () => {
  it('are refused at registration and, when the policy changed, at delivery', async () => {
    const receiver = await WebhookReceiver.start();
    const allowing = await startTestApp();
    const { id } = await createWebhook(allowing, receiver.url, ['message.created']);
    await allowing.stop();
    const strict = await startTestApp({
      DATABASE_URL: allowing.env.DATABASE_URL,
      CONSOLE_SECRET_KEY: allowing.env.CONSOLE_SECRET_KEY,
      CONSOLE_BOOTSTRAP_KEY: allowing.env.CONSOLE_BOOTSTRAP_KEY,
      OUTBOUND_ALLOW_PRIVATE: 'false',
    });
    try {
      const refused = await strict
        .api()
        .post(WEBHOOKS)
        .send({ url: receiver.url, events: ['message.created'] })
        .expect(400);
      expect(refused.body.message).toEqual([
        'url: must not point to a private, loopback, link-local or metadata address',
      ]);
      await strict.api().post(`${WEBHOOKS}/${id}/test`).expect(200);
      const { value } = await pollUntil(
        () => deliveriesOf(strict, id),
        (log) => log[0]?.attempts === 1 && log[0]?.last_error !== null,
        5_000,
      );
      expect(value[0].last_error).toMatch(/must not point to a private/);
      expect(receiver.received).toEqual([]);
    } finally {
      await strict.close();
      await receiver.close();
    }
  });
});
