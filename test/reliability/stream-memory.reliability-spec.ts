import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ClientRequest, IncomingMessage, request } from 'node:http';
import { AppProcess, startApp } from '../support/app-process';
import { API, ApiClient, expectStatus } from '../support/api-client';
import { randomApiKey } from '../support/keys';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { report } from '../support/report';
import { pollUntil, sleep } from '../support/wait';

const MESSAGES = 2_000;
const MESSAGE = 'm'.repeat(10_000);
const STREAMS = 12;
const MIB = 1024 * 1024;
/** What a stream that does not read may cost the server at most, here: twice the bench's target. */
const BOUND_PER_STREAM_BYTES = 4 * MIB;
/** RSS is sampled this often until it has stopped growing for SETTLED_SAMPLES samples in a row. */
const SAMPLE_MS = 500;
const SETTLED_SAMPLES = 6;
const SETTLE_DEADLINE_MS = 30_000;

function rssOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) {
    throw new Error(`no VmRSS for process ${pid}`);
  }
  return Number(match[1]) * 1024;
}

/** The RSS once it has stopped growing (the server has done all it will for the streams). */
async function settledRss(pid: number): Promise<number> {
  let highest = rssOf(pid);
  let steady = 0;
  const deadline = Date.now() + SETTLE_DEADLINE_MS;
  while (steady < SETTLED_SAMPLES && Date.now() < deadline) {
    await sleep(SAMPLE_MS);
    const rss = rssOf(pid);
    steady = rss > highest + MIB ? 0 : steady + 1;
    highest = Math.max(highest, rss);
  }
  return highest;
}

interface StalledStream {
  req: ClientRequest;
  res: IncomingMessage;
}

/** Opens a stream and never reads it: its response stays paused, so the network fills up. */
function openWithoutReading(url: string): Promise<StalledStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { Accept: 'text/event-stream' } });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream refused: ${res.statusCode}`));
        return;
      }
      res.on('error', () => undefined);
      resolve({ req, res });
    });
    req.end();
  });
}

describe('memory under streams that do not read', () => {
  let database: TestDatabase;
  let server: AppProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('');
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
  });

  it(`keeps the server's growth bounded under ${STREAMS} replay streams of a ${MESSAGES}-message conversation that never read`, async () => {
    const key = randomApiKey();
    server = await startApp(
      {
        DATABASE_URL: database.url,
        CONSOLE_BOOTSTRAP_KEY: key,
        CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MAX: '1000000',
      },
      { name: 'stream memory' },
    );
    const client = new ApiClient(server.url, key);
    const agent = await client.createAgent('Memory');
    const opening = (
      await expectStatus(
        client.call('POST', `/agents/${agent.id}/conversations/messages`, {
          message: 'opening',
          role: 'assistant',
          channel_type: 'webchat',
          channel_user_id: 'memory',
        }),
        201,
      )
    ).body.data;
    const path = `/agents/${agent.id}/conversations/${opening.conversation_id}`;
    for (let i = 1; i < MESSAGES; i++) {
      await expectStatus(
        client.call('POST', `${path}/messages`, { message: MESSAGE, role: 'assistant' }),
        201,
      );
    }
    const conversationBytes = MESSAGES * MESSAGE.length;
    const pid = server.child.pid!;

    const before = await settledRss(pid);
    const streams: StalledStream[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const ticket = (await expectStatus(client.call('POST', `${path}/stream-ticket`), 201)).body
        .data.ticket;
      streams.push(
        await openWithoutReading(
          `${server.url}${API}${path}/messages/stream?ticket=${ticket}&after=${opening.id}`,
        ),
      );
    }
    const after = await settledRss(pid);
    const growth = after - before;
    report('stream memory', 'replay streams that never read', {
      streams: STREAMS,
      conversation_mib: +(conversationBytes / MIB).toFixed(1),
      rss_before_mib: +(before / MIB).toFixed(1),
      rss_after_mib: +(after / MIB).toFixed(1),
      rss_growth_mib_per_stream: +(growth / STREAMS / MIB).toFixed(2),
    });

    streams.forEach(({ req }) => req.destroy());
    // Buffering every replay whole would grow the server by the conversation's size (20 MB) per
    // stream, five times the bound.
    expect(growth).toBeLessThan(STREAMS * BOUND_PER_STREAM_BYTES);
    const { value: health } = await pollUntil(
      () => client.call('GET', '/workflows?limit=1'),
      (res) => res.kind === 'response' && res.status === 200,
      5_000,
    );
    expect(health).toMatchObject({ kind: 'response', status: 200 });
    client.close();
  }, 240_000);
});
