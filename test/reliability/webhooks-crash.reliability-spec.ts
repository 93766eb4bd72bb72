import { randomBytes } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { ApiClient, expectStatus } from '../support/api-client';
import { AppProcess, startApp } from '../support/app-process';
import { POSTGRES_URL } from '../support/cluster-env';
import { randomApiKey } from '../support/keys';
import { recordSecret } from '../support/log-capture';
import { pollUntil } from '../support/wait';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';

/** The lease of a delivery is this plus 5 s: on PostgreSQL a restart waits for it to run out. */
const OUTBOUND_TIMEOUT_MS = '3000';

describe.each([
  ['SQLite', ''],
  ['PostgreSQL', POSTGRES_URL],
])('a SIGKILL in the middle of a webhook delivery, on %s', (_label, postgresUrl) => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let server: AppProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(postgresUrl);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await database?.drop();
  });

  it('delivers the event again after the restart, signed, with the same event id', async () => {
    const key = randomApiKey();
    const env = {
      DATABASE_URL: database.url,
      CONSOLE_BOOTSTRAP_KEY: key,
      CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_TIMEOUT_MS,
      WEBHOOK_FIRST_RETRY_S: '1',
    };
    server = await startApp(env, { name: 'before the crash' });
    let client = new ApiClient(server.url, key);
    const webhook = (
      await expectStatus(
        client.call('POST', '/webhooks', { url: receiver.url, events: ['message.created'] }),
        201,
      )
    ).body.data;
    recordSecret('integration secret', webhook.secret);

    receiver.queue('hang');
    await expectStatus(client.call('POST', `/webhooks/${webhook.id}/test`), 200);
    await receiver.waitFor((all) => all.length === 1);
    await server.stop('SIGKILL');
    client.close();

    server = await startApp(env, { name: 'after the restart' });
    client = new ApiClient(server.url, key);
    const [first, second] = await receiver.waitFor((all) => all.length === 2, 20_000);
    expect(second.body.id).toBe(first.body.id);
    expect(verifySignature(webhook.secret, second)).toBe(true);

    const { value } = await pollUntil(
      async () => (await client.get(`/webhooks/${webhook.id}/deliveries`)).body.data,
      (log: Array<{ status: string }>) => log[0]?.status === 'succeeded',
      10_000,
    );
    expect(value).toEqual([
      expect.objectContaining({ status: 'succeeded', attempts: 2, last_status_code: 200 }),
    ]);
    expect(receiver.received).toHaveLength(2);
    client.close();
  }, 60_000);
});
