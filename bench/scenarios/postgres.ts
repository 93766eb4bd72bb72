import { ApiClient } from '../../test/support/api-client';
import { clusterEnv } from '../../test/support/cluster-env';
import { AppInstance, startApp } from '../lib/app-instance';
import { onCleanup } from '../lib/cleanup';
import { progress } from '../lib/log';
import { BenchOptions } from '../lib/options';
import { Report } from '../lib/report';
import { runScenario } from '../lib/scenario-runner';
import { seedLoadData } from '../lib/seed';
import { EmbeddedContext } from './context';
import { inboxList } from './inbox-list';
import { LOAD_SCENARIOS, runLoadScenarios, withBaselines } from './load-scenarios';

/**
 * Scenarios 1–3 on PostgreSQL (--database=postgres): a throwaway database on TEST_POSTGRES_URL,
 * first one instance, then two instances with Redis (cluster mode) sharing the same data, the
 * load's connections split between them. The floors run again beside them (started for this
 * placement), the peer beside the one instance only.
 */
export async function runPostgres(
  options: BenchOptions,
  report: Report,
  workDir: string,
): Promise<void> {
  const { sizes, scenarios } = options;
  if (![...LOAD_SCENARIOS, 'inbox-list' as const].some((name) => scenarios.has(name))) {
    return;
  }
  const cluster = await clusterEnv({ LOG_LEVEL: 'warn' });
  const cleanup = onCleanup('drop the PostgreSQL database and the Redis keys', cluster.cleanup);
  const { env, key } = cluster;
  const { REDIS_URL: _url, REDIS_KEY_PREFIX: _prefix, ...single } = env;
  const instances: AppInstance[] = [];
  const stopAll = async () => {
    for (const instance of instances.splice(0)) {
      await instance.stop();
    }
  };
  try {
    progress('starting the app on a fresh PostgreSQL database (one instance, no Redis)');
    const app = await startApp('pg-app', single, workDir);
    instances.push(app);
    const api = new ApiClient(app.origin, key);
    const seed = await seedLoadData(api, sizes);
    const context = (on: AppInstance[]): EmbeddedContext => ({
      sizes,
      app: on[0],
      api: new ApiClient(on[0].origin, key),
      seed,
      database: 'postgres',
      instances: on,
    });
    const databaseUrl = cluster.database.url;
    const req = {
      api,
      seed,
      database: 'postgres' as const,
      databaseUrl,
      workDir,
      sizes,
      scenarios,
    };
    await withBaselines(req, report, async (baselines, loads) => {
      await runLoadScenarios(report, scenarios, () => ({ ...context([app]), baselines, loads }));
      // The peer is one instance: a ratio of two instances against it would say nothing.
      await baselines.finish(report, ['peer-nest']);
      if (scenarios.has('inbox-list')) {
        await runScenario(
          report,
          'inbox-list',
          sizes,
          () => inboxList(context([app]), { databaseUrl, env: single }),
          { database: 'postgres', instances: 1 },
        );
      }
      await stopAll();
      if (!LOAD_SCENARIOS.some((name) => scenarios.has(name))) {
        return;
      }
      progress('starting two instances on the same PostgreSQL database with Redis (cluster mode)');
      const a = await startApp('pg-instance-a', env, workDir);
      instances.push(a);
      const b = await startApp('pg-instance-b', env, workDir);
      instances.push(b);
      await runLoadScenarios(report, scenarios, () => ({ ...context([a, b]), baselines, loads }));
    });
  } finally {
    await stopAll();
    await cleanup();
  }
}
