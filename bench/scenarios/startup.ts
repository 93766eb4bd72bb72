import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startApp } from '../lib/app-instance';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round, summarize } from '../lib/stats';
import { TARGETS } from '../targets';

/**
 * Process spawn → first /readyz 200, each start on a fresh SQLite database (migrations and the
 * bootstrap key included). One start is too noisy on a shared machine, so the median is reported.
 */
export async function measureStartup(
  sizes: Sizes,
  workDir: string,
  env: Record<string, string>,
): Promise<ScenarioLine> {
  const samples: number[] = [];
  for (let i = 0; i < sizes.startups; i++) {
    const dataDir = mkdtempSync(join(workDir, 'startup-'));
    const app = await startApp(
      `startup-${i}`,
      {
        ...env,
        DATABASE_URL: `sqlite:${join(dataDir, 'console.sqlite')}`,
      },
      workDir,
    );
    samples.push(app.startupMs);
    await app.stop();
  }
  const summary = summarize(samples);
  progress(`startup: ${samples.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  return scenarioLine(
    'startup',
    {
      mode: sizes.mode,
      startup_ms: round(summary.p50, 0),
      startup_max_ms: round(summary.max, 0),
      startup_samples_ms: samples.map((ms) => round(ms, 0)),
      note: `median of ${samples.length} starts, each on a fresh SQLite database`,
    },
    TARGETS.startup,
  );
}
