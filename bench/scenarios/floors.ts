import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../test/support/free-port';
import { progress } from '../lib/log';
import { benchScriptArgs, spawnNode, waitForOk } from '../lib/processes';
import { Report } from '../lib/report';
import { Baselines, BaselineServer, FloorName, FLOORS } from './baselines';

const FLOOR_PATH = '/floor';

/** Starts one floor server as its own process, answering the workflow envelope's bytes. */
async function startFloor(
  name: FloorName,
  bodyFile: string,
  bodyBytes: number,
): Promise<BaselineServer> {
  progress(`${name}: starting`);
  const port = await freePort();
  const server = spawnNode(name, benchScriptArgs(`${name}.ts`), {
    NODE_ENV: 'production',
    PORT: String(port),
    BENCH_BODY_FILE: bodyFile,
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${origin}${FLOOR_PATH}`, server, 60_000);
    const served = Buffer.byteLength(await (await fetch(`${origin}${FLOOR_PATH}`)).text());
    if (served !== bodyBytes) {
      throw new Error(`${name} answers ${served} bytes, the workflow envelope has ${bodyBytes}`);
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    name,
    origin,
    pid: server.pid,
    path: FLOOR_PATH,
    headers: {},
    facts: { body_bytes: bodyBytes },
    stop: () => server.stop(),
  };
}

/**
 * Starts both floors, answering exactly the body the app gives for GET /workflows/{id}, and adds
 * them to the placement's baselines.
 */
export async function startFloors(
  baselines: Baselines,
  envelope: string,
  workDir: string,
  report: Report,
): Promise<void> {
  const bodyFile = join(workDir, 'floor-body.json');
  writeFileSync(bodyFile, envelope);
  const bodyBytes = Buffer.byteLength(envelope);
  for (const name of FLOORS) {
    await baselines.start(name, report, () => startFloor(name, bodyFile, bodyBytes));
  }
}
