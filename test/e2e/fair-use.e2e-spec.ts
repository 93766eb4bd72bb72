import { createServer as createHttpServer, Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Database } from '@/database/database.service';
import { WebhookDeliveryEntity } from '@/modules/webhooks/entities/webhook-delivery.entity';
import { WebhookEventEntity } from '@/modules/webhooks/entities/webhook-event.entity';
import { WebhookDeliveriesRepository } from '@/modules/webhooks/webhook-deliveries.repository';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { createAgent } from '../factories/agents';
import { repliesSettled, sendAs } from '../factories/conversations';
import { startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createWebhook, deliveriesOf, WEBHOOKS } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { mailText, SmtpSink } from '../support/smtp-sink';
import { pollUntil, sleep } from '../support/wait';
import { SilentServer, startSilentServer } from '../support/silent-server';
import { WebhookReceiver } from '../support/webhook-receiver';

describe('fair use: webhooks', () => {
  let t: TestApp;
  let silent: SilentServer;
  let receiver: WebhookReceiver;
  let noisy: TeamKey;
  let quiet: TeamKey;

  beforeAll(async () => {
    silent = await startSilentServer();
    receiver = await WebhookReceiver.start();
    // The outbound timeout is long next to the test: a silent endpoint holds its slot throughout.
    t = await startTestApp({ OUTBOUND_TIMEOUT_MS: '30000' });
    noisy = await t.createKey('noisy', ['*']);
    quiet = await t.createKey('quiet', ['*']);
  });
  afterAll(async () => {
    await t.close();
    await silent.close();
    await receiver.close();
  });

  it("delivers a team's events while another team's silent endpoints hang", async () => {
    const hooks: Array<{ id: string }> = [];
    for (let i = 0; i < 20; i++) {
      hooks.push(await createWebhook(t, `${silent.url}/hook-${i}`, ['message.created'], noisy.key));
    }
    const noisyAgent = await createAgent(t, {}, noisy.key);
    for (let i = 0; i < 3; i++) {
      await sendAs(t, noisyAgent.id, `noisy-${i}`, 'hello', {}, noisy.key);
    }
    // The silent endpoints' deliveries are written and under way: 60 hang for 30 s each.
    await pollUntil(
      async () => (await deliveriesOf(t, hooks[19].id, noisy.key)).length,
      (count) => count >= 3,
      10_000,
    );

    const hook = await createWebhook(t, receiver.url, ['message.created'], quiet.key);
    const quietAgent = await createAgent(t, {}, quiet.key);
    await sendAs(t, quietAgent.id, 'quiet-1', 'hello', {}, quiet.key);
    await pollUntil(
      async () => receiver.received.length,
      (count) => count > 0,
      20_000,
    );
    expect(receiver.received.length).toBeGreaterThan(0);
    // When the quiet team's event arrived, not one of the noisy team's attempts had ended.
    const noisyOutcomes = (
      await Promise.all(hooks.map((h) => deliveriesOf(t, h.id, noisy.key)))
    ).flat();
    expect(noisyOutcomes.length).toBeGreaterThanOrEqual(60);
    expect(noisyOutcomes.filter((d) => d.last_error !== null || d.status !== 'pending')).toEqual(
      [],
    );
    expect((await deliveriesOf(t, hook.id, quiet.key))[0]?.status).toBe('succeeded');
  });

  it('refuses a team its endpoint beyond WEBHOOK_MAX_ENDPOINTS, even when asked at once', async () => {
    const team = await t.createKey('quota', ['*']);
    for (let i = 0; i < 18; i++) {
      await createWebhook(t, `${receiver.url}/q-${i}`, ['message.created'], team.key);
    }
    const racing = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        t
          .api(team.key)
          .post(WEBHOOKS)
          .send({ url: `${receiver.url}/r-${i}`, events: ['message.created'] }),
      ),
    );
    expect(racing.map((res) => res.status).sort()).toEqual([201, 201, 403, 403, 403]);
    const refused = racing.find((res) => res.status === 403)!;
    expect(refused.body).toMatchObject({ code: 'forbidden', statusCode: 403 });
    expect(refused.body.message).toContain('WEBHOOK_MAX_ENDPOINTS');
    const list = await t.api(team.key).get(`${WEBHOOKS}?limit=100`).expect(200);
    expect(list.body.meta.total_count).toBe(20);
  });

  it('refuses an endpoint URL that carries a user name or password', async () => {
    const res = await t
      .api()
      .post(WEBHOOKS)
      .send({ url: 'http://user:hunter2@127.0.0.1:9/hook', events: ['message.created'] })
      .expect(400);
    expect(res.body.message).toEqual(['url: must not carry a user name or password']);
  });

  it("writes one outbox row in the change's transaction, whatever the number of endpoints", async () => {
    const team = await t.createKey('fanout', ['*']);
    for (let i = 0; i < 5; i++) {
      await createWebhook(t, `${receiver.url}/f-${i}`, ['agent.status_changed'], team.key);
    }
    const db = t.app.get(Database);
    const events = t.app.get(WebhookEvents);
    const counts = await db.transaction(async () => {
      await events.emit(team.teamId, 'agent.status_changed', { id: 'x' });
      return {
        events: await db.count(WebhookEventEntity, { teamId: team.teamId }),
        deliveries: await db.count(WebhookDeliveryEntity, { teamId: team.teamId }),
      };
    });
    expect(counts).toEqual({ events: 1, deliveries: 0 });
    const { value } = await pollUntil(
      () => db.count(WebhookDeliveryEntity, { teamId: team.teamId }),
      (count) => count === 5,
      10_000,
    );
    expect(value).toBe(5);
  });

  it("records a delivery's outcome only while its claim holds", async () => {
    const team = await t.createKey('claims', ['*']);
    const hook = await createWebhook(t, `${receiver.url}/claims`, ['message.created'], team.key);
    const db = t.app.get(Database);
    const deliveries = t.app.get(WebhookDeliveriesRepository);
    const ping = await t.api(team.key).post(`${WEBHOOKS}/${hook.id}/test`).expect(200);
    await pollUntil(
      async () => (await deliveriesOf(t, hook.id, team.key))[0]?.status,
      (status) => status === 'succeeded',
      10_000,
    );
    // Due again, far in the future, so that no worker of the app takes it meanwhile.
    const later = new Date(Date.now() + 3_600_000);
    await db.update(
      WebhookDeliveryEntity,
      { id: ping.body.data.id },
      { status: 'pending', nextAttemptAt: later },
    );
    const first = await deliveries.jobs.claim(ping.body.data.id, 1_000, later);
    expect(first).not.toBeNull();
    // Its lease runs out; another worker takes the delivery and records success.
    const second = await deliveries.jobs.claim(
      ping.body.data.id,
      60_000,
      new Date(later.getTime() + 2_000),
    );
    expect(second).not.toBeNull();
    expect(
      await deliveries.jobs.settle(ping.body.data.id, second!.token, { status: 'succeeded' }),
    ).toBe(true);
    // The first worker's late failure no longer overwrites it.
    expect(
      await deliveries.jobs.settle(ping.body.data.id, first!.token, {
        status: 'failed',
        last_error: 'late',
      }),
    ).toBe(false);
    const [stored] = await deliveriesOf(t, hook.id, team.key);
    expect(stored).toMatchObject({ status: 'succeeded', last_error: null });
  });
});

describe('fair use: knowledge fetches', () => {
  let t: TestApp;
  let site: HttpServer;
  let siteUrl: string;

  beforeAll(async () => {
    site = createHttpServer((req, res) => {
      if (req.url?.startsWith('/slow')) {
        return; // never answers: the fetch waits for its time cap
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('The shop opens at nine every morning.');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await startTestApp({ KNOWLEDGE_FETCH_TIMEOUT_MS: '30000' });
  });
  afterAll(async () => {
    await t.close();
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  it("fetches a team's page while another team's slow pages wait for their cap", async () => {
    const slowTeam = await t.createKey('slow-pages', ['*']);
    const slowAgent = await createAgent(t, {}, slowTeam.key);
    const slowPages = [];
    for (let i = 0; i < 12; i++) {
      const res = await t
        .api(slowTeam.key)
        .post(`/api/v1/console/agents/${slowAgent.id}/knowledge_bases`)
        .send({ type: 'url', name: `slow ${i}`, url: `${siteUrl}/slow-${i}` })
        .expect(201);
      slowPages.push(res.body.data.id);
    }
    const agent = await createAgent(t);
    const base = `/api/v1/console/agents/${agent.id}/knowledge_bases`;
    const mine = await t
      .api()
      .post(base)
      .send({ type: 'url', name: 'hours', url: `${siteUrl}/hours` })
      .expect(201);
    const { value } = await pollUntil(
      async () => (await t.api().get(`${base}/${mine.body.data.id}`)).body.data.status,
      (status) => status !== 'pending',
      20_000,
    );
    expect(value).toBe('ready');
    const slowStatuses = await Promise.all(
      slowPages.map(
        async (id) =>
          (
            await t
              .api(slowTeam.key)
              .get(`/api/v1/console/agents/${slowAgent.id}/knowledge_bases/${id}`)
          ).body.data.status,
      ),
    );
    expect(slowStatuses.every((status) => status === 'pending')).toBe(true);
  });
});

describe('fair use: hand-off mails', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  const workflow = {
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

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    t = await startTestApp({ SMTP_URL: smtp.url, HANDOFF_MAIL_MAX_PER_HOUR: '3' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('sends a team at most HANDOFF_MAIL_MAX_PER_HOUR mails, and an address no more from anyone', async () => {
    const team = await t.createKey('mailer', ['*']);
    const wf = await createWorkflow(t, workflow, team.key);
    const agent = await createAgent(
      t,
      { workflow_id: wf.id, escalation_email: 'victim@example.test' },
      team.key,
    );
    for (let i = 0; i < 6; i++) {
      await sendAs(t, agent.id, `customer-${i}`, 'talk to a human', {}, team.key);
    }
    await repliesSettled(t);
    await pollUntil(
      async () => smtp.mails.length,
      (count) => count >= 3,
      10_000,
    );
    await sleep(1_000);
    expect(smtp.mails).toHaveLength(3);

    // Another team aiming at the same address gets nothing through this hour either.
    const other = await t.createKey('mailer-2', ['*']);
    const otherWf = await createWorkflow(t, workflow, other.key);
    const otherAgent = await createAgent(
      t,
      { workflow_id: otherWf.id, escalation_email: 'Victim@Example.test' },
      other.key,
    );
    await sendAs(t, otherAgent.id, 'customer-x', 'talk to a human', {}, other.key);
    // Its own address still gets its mail.
    const ownAgent = await createAgent(
      t,
      { workflow_id: otherWf.id, escalation_email: 'desk@example.test' },
      other.key,
    );
    await sendAs(t, ownAgent.id, 'customer-y', 'talk to a human', {}, other.key);
    await repliesSettled(t);
    await pollUntil(
      async () => smtp.mails.length,
      (count) => count >= 4,
      10_000,
    );
    await sleep(1_000);
    expect(smtp.mails.map((mail) => mail.to)).toEqual([
      ['victim@example.test'],
      ['victim@example.test'],
      ['victim@example.test'],
      ['desk@example.test'],
    ]);
    expect(mailText(smtp.mails[3])).toContain('talk to a human');
  });
});
