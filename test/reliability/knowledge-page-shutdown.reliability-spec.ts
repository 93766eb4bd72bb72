import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ApiClient } from '../support/api-client';
import { AppProcess, startApp } from '../support/app-process';
import { nestedHtml } from '../support/hostile-pages';
import { randomApiKey } from '../support/keys';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { pollUntil, sleep } from '../support/wait';

/** Two sweeps of the fetch worker (one every 2 s): time enough to take a due item again. */
const SWEEPS_MS = 5_000;

describe('a knowledge page being read when the process is stopped', () => {
  let database: TestDatabase;
  let server: AppProcess | undefined;
  let site: Server;
  let requests = 0;
  let onServed: (() => void) | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('');
    const page = nestedHtml(2 * 1024 * 1024);
    site = createServer((_req, res) => {
      requests++;
      res.on('finish', () => onServed?.());
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await new Promise((resolve) => site.close(resolve));
    await database?.drop();
  });

  it('exits on SIGTERM without waiting for the page; after the restart the page fails at its cap, once', async () => {
    const key = randomApiKey();
    const secret = randomBytes(32).toString('hex');
    const env = (readTimeoutMs: number) => ({
      DATABASE_URL: database.url,
      CONSOLE_BOOTSTRAP_KEY: key,
      CONSOLE_SECRET_KEY: secret,
      LOG_LEVEL: 'warn',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      KNOWLEDGE_READ_TIMEOUT_MS: String(readTimeoutMs),
    });
    // The built app: the thread's entry is loaded from dist as in production.
    server = await startApp(env(120_000), { name: 'reading a nested page' });
    let client = new ApiClient(server.url, key);
    const agent = await client.createAgent('Pages');
    const items = `/agents/${agent.id}/knowledge_bases`;
    const served = new Promise<void>((resolve) => (onServed = resolve));
    const { address, port } = site.address() as AddressInfo;
    const kb = await client.data('POST', items, 201, {
      type: 'url',
      name: 'Nested',
      url: `http://${address}:${port}/nested`,
    });
    await served;
    for (let i = 0; i < 5; i++) {
      expect((await client.data('GET', `${items}/${kb.id}`, 200)).status).toBe('pending');
    }
    client.close();

    // Exit code 0: closed by itself, not cut off by the shutdown deadline (which exits 1).
    expect(await server.stop('SIGTERM')).toBe(0);

    // The first run never settled the item (its cap was 120 s): the restart reads the page again.
    server = await startApp(env(1_000), { name: 'after SIGTERM' });
    client = new ApiClient(server.url, key);
    const { value } = await pollUntil(
      () => client.data('GET', `${items}/${kb.id}`, 200),
      (item) => item.status !== 'pending',
      30_000,
      100,
    );
    expect(value).toMatchObject({
      status: 'failed',
      error: 'the page took longer than 1 s to read',
    });
    expect(requests).toBe(2);
    client.close();

    // Settled as failed, the page is not taken again, neither by the sweeps nor after a restart.
    expect(await server.stop('SIGTERM')).toBe(0);
    server = await startApp(env(1_000), { name: 'after the page failed' });
    await sleep(SWEEPS_MS);
    client = new ApiClient(server.url, key);
    expect(await client.data('GET', `${items}/${kb.id}`, 200)).toMatchObject({ status: 'failed' });
    expect(requests).toBe(2);
    client.close();
  }, 120_000);
});
