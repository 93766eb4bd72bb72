import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from '../lib/load-runner';
import { LoadResult } from '../lib/load-protocol';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { freePort } from '../../test/support/free-port';
import { benchScriptArgs, spawnNode, waitForOk } from '../lib/processes';
import { Report, scenarioLine } from '../lib/report';
import { TARGETS } from '../targets';
import { Floors } from './context';
import { loadFigures } from './load-figures';

const FLOOR_PATH = '/floor';

/** Starts one baseline server as its own process and loads it like the app's read scenario. */
async function measureFloor(
  name: 'floor-node' | 'floor-nest',
  bodyFile: string,
  bodyBytes: number,
  sizes: Sizes,
): Promise<LoadResult> {
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
    progress(`${name}: ${sizes.connections} connections, ${sizes.durationS} s`);
    return await runLoad(name, {
      origin,
      method: 'GET',
      paths: [FLOOR_PATH],
      headers: {},
      connections: sizes.connections,
      durationS: sizes.durationS,
      warmupS: sizes.warmupS,
    });
  } finally {
    await server.stop();
  }
}

/**
 * Measures both baselines, answering exactly the body the app gives for GET /workflows/{id},
 * and reports them; every other throughput of the run is a ratio against these.
 */
export async function measureFloors(
  envelope: string,
  workDir: string,
  sizes: Sizes,
  report: Report,
): Promise<Floors> {
  const bodyFile = join(workDir, 'floor-body.json');
  writeFileSync(bodyFile, envelope);
  const bodyBytes = Buffer.byteLength(envelope);
  const floors: Floors = { node: null, nest: null, peer: null, peerCpuUs: null };
  const results: Partial<Record<'floor-node' | 'floor-nest', LoadResult | Error>> = {};
  for (const name of ['floor-node', 'floor-nest'] as const) {
    try {
      const result = await measureFloor(name, bodyFile, bodyBytes, sizes);
      results[name] = result;
      floors[name === 'floor-node' ? 'node' : 'nest'] = result.rps;
    } catch (error) {
      results[name] = error as Error;
    }
  }
  for (const name of ['floor-node', 'floor-nest'] as const) {
    const result = results[name];
    const figures =
      result instanceof Error || result === undefined
        ? { mode: sizes.mode, error: String(result?.message) }
        : { ...loadFigures(result, sizes, floors), body_bytes: bodyBytes };
    report.add(scenarioLine(name, figures, TARGETS[name]));
  }
  return floors;
}
