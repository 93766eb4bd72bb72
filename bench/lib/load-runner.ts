import { LoadAnswer, LoadCommand, LoadJob, LoadResult } from './load-protocol';
import { Worker } from './worker';

const SLACK_MS = 60_000;

/** Runs one autocannon job in its own process and returns what it measured. */
export async function runLoad(name: string, job: LoadJob): Promise<LoadResult> {
  const worker = Worker.start<LoadCommand, LoadAnswer>(`load (${name})`, 'load-worker.ts');
  try {
    worker.send({ type: 'run', job });
    const timeoutMs = (job.durationS + job.warmupS) * 1000 + SLACK_MS;
    return (await worker.receive('result', timeoutMs)).result;
  } finally {
    await worker.stop();
  }
}
