import { isDeepStrictEqual } from 'node:util';
import { API } from '../../test/support/api-client';
import { freePort } from '../../test/support/free-port';
import { progress } from '../lib/log';
import { DatabaseKind } from '../lib/options';
import { ManagedProcess } from '../../test/support/managed-process';
import { benchScriptArgs, sleep, spawnNode } from '../lib/processes';
import { BaselineServer } from './baselines';

export interface PeerTarget {
  /** The database the service's instance uses, as its DATABASE_URL. */
  databaseUrl: string;
  database: DatabaseKind;
  key: string;
  workflowId: string;
  /** The body the service answers for GET /workflows/{id}: the peer must answer the same data. */
  envelope: string;
}

const READY_TIMEOUT_MS = 60_000;

/** Any HTTP answer (the peer has no public route) means that the server is up. */
async function waitForListening(origin: string, server: ManagedProcess): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (performance.now() < deadline && server.isRunning()) {
    const up = await fetch(origin).then(
      () => true,
      () => false,
    );
    if (up) {
      return;
    }
    await sleep(20);
  }
  throw new Error(`peer-nest did not start:\n${server.tail()}`);
}

/** Fails unless the peer answers 200 and the same JSON (key order aside) as the service. */
async function checkSameBody(url: string, key: string, envelope: string): Promise<boolean> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  const text = await res.text();
  if (res.status !== 200) {
    throw new Error(`peer-nest answers ${res.status}: ${text.slice(0, 300)}`);
  }
  if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(envelope))) {
    throw new Error(`peer-nest answers another body:\n${text}\nthe service:\n${envelope}`);
  }
  return text === envelope;
}

/**
 * Baseline "peer-nest" (bench/peer-nest): the same read written the conventional NestJS way, on
 * the service's own data, started once it is known to answer what the service answers. Loaded
 * like get-workflow, in rounds alternating with it: `ratio_vs_peer` divides by its req/s.
 */
export async function startPeer(target: PeerTarget): Promise<BaselineServer> {
  progress(`peer-nest (${target.database}): starting`);
  const port = await freePort();
  const server = spawnNode('peer-nest', benchScriptArgs('peer-nest/main.ts'), {
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: target.databaseUrl,
    RATE_LIMIT_MAX: '100000000',
  });
  const origin = `http://127.0.0.1:${port}`;
  const path = `${API}/workflows/${target.workflowId}`;
  try {
    await waitForListening(origin, server);
    const sameBytes = await checkSameBody(`${origin}${path}`, target.key, target.envelope);
    return {
      name: 'peer-nest',
      origin,
      pid: server.pid,
      path,
      headers: { Authorization: `Bearer ${target.key}` },
      facts: { path, same_data: true, same_bytes: sameBytes },
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
