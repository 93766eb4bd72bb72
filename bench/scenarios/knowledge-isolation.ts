import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ApiClient } from '../../test/support/api-client';
import { nestedHtml } from '../../test/support/hostile-pages';
import { createKeyWithCli, createTeamWithCli, randomApiKey } from '../../test/support/keys';
import { sleep } from '../../test/support/wait';
import { AppInstance, startApp } from '../lib/app-instance';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round, summarize } from '../lib/stats';
import { TARGETS } from '../targets';

/** Clients of the other team, each sending its next GET as soon as its last one answered. */
const CLIENTS = 1;
const BASELINE_MS = 2_000;
const PAGE_BYTES = 2 * 1024 * 1024;
/** How often the page's owner looks whether its item has settled. */
const POLL_MS = 200;

/** Milliseconds of each GET of `path` sent by CLIENTS clients until `done()` holds. */
async function timeReads(api: ApiClient, path: string, done: () => boolean): Promise<number[]> {
  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (!done()) {
        const started = performance.now();
        await api.data('GET', path, 200);
        samples.push(performance.now() - started);
      }
    }),
  );
  return samples;
}

/**
 * Another team's reads while one team's knowledge page, 2 MiB of nested elements that
 * Readability would take hours over, is read (in a worker thread, up to KNOWLEDGE_READ_TIMEOUT_MS
 * at its default): their latency before the page, and while it is being read.
 */
export async function knowledgeIsolation(sizes: Sizes, workDir: string): Promise<ScenarioLine> {
  const page = nestedHtml(PAGE_BYTES);
  let served: () => void = () => undefined;
  const site: Server = createServer((_req, res) => {
    res.on('finish', () => served());
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  let app: AppInstance | undefined;
  try {
    const key = randomApiKey();
    const env = {
      DATABASE_URL: `sqlite:${join(workDir, 'knowledge-isolation', 'console.sqlite')}`,
      CONSOLE_BOOTSTRAP_KEY: key,
      OUTBOUND_ALLOW_PRIVATE: 'true',
    };
    app = await startApp('knowledge-isolation', env, workDir);
    await createTeamWithCli(env, 'neighbour');
    const neighbourKey = (await createKeyWithCli(env, 'neighbour', '*')).key;
    const owner = new ApiClient(app.origin, key);
    const neighbour = new ApiClient(app.origin, neighbourKey, { maxSockets: CLIENTS });
    const read = `/agents/${(await neighbour.createAgent('Neighbour')).id}`;
    const ownerAgent = await owner.createAgent('Pages');

    progress(`knowledge-isolation: the other team's reads, ${BASELINE_MS / 1000} s idle`);
    const idleUntil = performance.now() + BASELINE_MS;
    const idle = summarize(await timeReads(neighbour, read, () => performance.now() > idleUntil));

    progress('knowledge-isolation: the same reads while a nested 2 MiB page is read');
    const pageServed = new Promise<void>((resolve) => (served = resolve));
    const items = `/agents/${ownerAgent.id}/knowledge_bases`;
    const { port } = site.address() as AddressInfo;
    const kb = await owner.data('POST', items, 201, {
      type: 'url',
      name: 'Nested',
      url: `http://127.0.0.1:${port}/nested`,
    });
    await pageServed;
    const readStarted = performance.now();
    let item: { status: string; error: string | null } = { status: 'pending', error: null };
    const watching = (async () => {
      while (item.status === 'pending') {
        await sleep(POLL_MS);
        item = await owner.data('GET', `${items}/${kb.id}`, 200);
      }
    })();
    const during = summarize(await timeReads(neighbour, read, () => item.status !== 'pending'));
    await watching;
    const readMs = performance.now() - readStarted;
    owner.close();
    neighbour.close();
    return scenarioLine(
      'knowledge-isolation',
      {
        mode: sizes.mode,
        p50_ms: round(during.p50, 1),
        p99_ms: round(during.p99, 1),
        max_ms: round(during.max, 1),
        reads: during.count,
        idle_p99_ms: round(idle.p99, 1),
        page_read_ms: round(readMs, 0),
        page_outcome: item.error ?? item.status,
        note:
          `GET /agents/{id} of another team, one at a time, back to back, while the page ` +
          'is read (from its download to its item settling); idle_p99_ms: the same reads before',
      },
      TARGETS['knowledge-isolation'],
    );
  } finally {
    await app?.stop();
    await new Promise((resolve) => site.close(resolve));
  }
}
