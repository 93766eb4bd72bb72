import { randomBytes } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { ApiClient } from '../support/api-client';
import { AppProcess, startApp } from '../support/app-process';
import { POSTGRES_URL } from '../support/cluster-env';
import {
  FakeGraphApi,
  postSignedNotification as notify,
  whatsappTextNotification,
} from '../support/fake-graph-api';
import { randomApiKey } from '../support/keys';
import { recordSecret } from '../support/log-capture';
import { pollUntil } from '../support/wait';

const APP_SECRET = 'crash-app-secret';
/** A send's lease is this plus 5 s: on PostgreSQL a restart waits for it to run out. */
const OUTBOUND_TIMEOUT_MS = '3000';
const CUSTOMERS = 12;

describe.each([
  ['SQLite', ''],
  ['PostgreSQL', POSTGRES_URL],
])('a SIGKILL while WhatsApp messages come in and replies go out, on %s', (_label, postgresUrl) => {
  let database: TestDatabase;
  let graph: FakeGraphApi;
  let server: AppProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(postgresUrl);
    graph = await FakeGraphApi.start();
    recordSecret('integration secret', graph.options.accessToken);
    recordSecret('integration secret', APP_SECRET);
  });
  afterAll(async () => {
    await server?.stop();
    await graph?.close();
    await database?.drop();
  });

  it('stores one reply to every acknowledged message, and sends again only what was in flight', async () => {
    const key = randomApiKey();
    const env = {
      DATABASE_URL: database.url,
      CONSOLE_BOOTSTRAP_KEY: key,
      CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://console.example.com',
      META_GRAPH_BASE_URL: graph.url,
      OUTBOUND_TIMEOUT_MS,
      CHANNEL_FIRST_RETRY_S: '1',
    };
    server = await startApp(env, { name: 'before the crash' });
    let client = new ApiClient(server.url, key);
    const workflow = await client.data('POST', '/workflows', 201, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hi there!', enabled: true }],
    });
    const agent = await client.data('POST', '/agents', 201, {
      workflow_id: workflow.id,
      name: 'Ada',
      description: 'Answers on WhatsApp',
    });
    const channel = await client.data(
      'POST',
      `/agents/${agent.id}/channels/whatsapp/connect`,
      200,
      {
        phone_number_id: graph.options.phoneNumberId,
        access_token: graph.options.accessToken,
        app_secret: APP_SECRET,
      },
    );

    // The first reply's send hangs: the process dies with a send in flight, and with
    // notifications acknowledged moments before, some not yet taken in.
    graph.failNext('messages', { hang: true });
    const senders = Array.from(
      { length: CUSTOMERS },
      (_, i) => `23480311${String(i).padStart(5, '0')}`,
    );
    const statuses = [];
    for (const [i, from] of senders.entries()) {
      statuses.push(
        await notify(
          server.url,
          channel.id,
          whatsappTextNotification({
            phoneNumberId: graph.options.phoneNumberId,
            from,
            text: 'hello',
            id: `wamid.crash-${i}`,
          }),
          APP_SECRET,
        ),
      );
    }
    expect(statuses).toEqual(senders.map(() => 200));
    await pollUntil(
      async () => graph.requestsOf('messages').length,
      (count) => count >= 1,
      10_000,
      10,
    );
    await server.stop('SIGKILL');
    client.close();
    // Read after the kill: a send that reached the provider just before it (its answer lost with
    // the process) is in flight as much as the hung one.
    const sentBeforeKill = new Set(
      graph.requestsOf('messages').map((r) => (r.body as { to: string }).to),
    );

    server = await startApp(env, { name: 'after the restart' });
    client = new ApiClient(server.url, key);
    // Meta redelivers what it is not sure of: taken in once all the same.
    expect(
      await notify(
        server.url,
        channel.id,
        whatsappTextNotification({
          phoneNumberId: graph.options.phoneNumberId,
          from: senders[0],
          text: 'hello',
          id: 'wamid.crash-0',
        }),
        APP_SECRET,
      ),
    ).toBe(200);
    const answered = (to: string) =>
      graph.requestsOf('messages').filter((r) => (r.body as { to: string }).to === to).length;
    // A notification the killed process had claimed waits out its lease (30 s) first.
    await pollUntil(
      async () => senders.filter((from) => answered(from) >= 1).length,
      (count) => count === CUSTOMERS,
      50_000,
      50,
    );
    const conversations = await client.listAll<{ id: string; channel_user_id: string }>(
      `/agents/${agent.id}/conversations`,
    );
    expect(conversations.map((c) => c.channel_user_id).sort()).toEqual([...senders].sort());
    for (const conversation of conversations) {
      const messages = await client.listAll<{ message: string; role: string }>(
        `/agents/${agent.id}/conversations/${conversation.id}/messages`,
      );
      expect(messages.map((m) => m.message)).toEqual(['hello', 'Hi there!']);
    }
    // Every reply is stored once and sent; a send in flight when the process died (the hung one,
    // or one whose answer the crash lost) is sent again, as a webhook delivery would be, and no
    // other.
    const sends = senders.map(answered);
    expect(Math.min(...sends)).toBe(1);
    expect(Math.max(...sends)).toBeLessThanOrEqual(2);
    const repeated = senders.filter((_, i) => sends[i] === 2);
    expect(repeated.every((to) => sentBeforeKill.has(to))).toBe(true);
    // The hung send at least.
    expect(repeated.length).toBeGreaterThanOrEqual(1);
    client.close();
  }, 120_000);
});
