import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../test/support/api-client';
import { randomApiKey } from '../test/support/keys';
import { AppInstance, startApp } from './lib/app-instance';
import { installExitHandlers, removeAtExit, runCleanup } from './lib/cleanup';
import { progress } from './lib/log';
import { BenchOptions, parseOptions, ScenarioName } from './lib/options';
import { Report, ScenarioLine } from './lib/report';
import { runScenario } from './lib/scenario-runner';
import { seedLoadData, seedLongConversation } from './lib/seed';
import { renderTable } from './lib/table';
import { answers } from './scenarios/answers';
import { clusterDelivery } from './scenarios/cluster-delivery';
import { EmbeddedContext } from './scenarios/context';
import { inboxList } from './scenarios/inbox-list';
import { knowledgeIsolation } from './scenarios/knowledge-isolation';
import { runLoadScenarios, withBaselines } from './scenarios/load-scenarios';
import { runPostgres } from './scenarios/postgres';
import { measureStartup } from './scenarios/startup';
import { replyLatency } from './scenarios/reply-latency';
import { ruleMatching } from './scenarios/rule-matching';
import { streamCapacity } from './scenarios/stream-capacity';
import { streamFanout } from './scenarios/stream-fanout';
import { streamStalledReplay } from './scenarios/stream-stalled-replay';
import { webhookDelivery } from './scenarios/webhook-delivery';
import { webhookIsolation } from './scenarios/webhook-isolation';
import { whatsapp } from './scenarios/whatsapp';
import { widget } from './scenarios/widget';

/**
 * `npm run bench`: starts the built app and the baselines as processes of their own, runs the
 * scenarios one after another, prints one JSON line per scenario and a table. Figures are
 * reported against their targets; a missed target never fails the run.
 */

const STREAM_SCENARIOS: ScenarioName[] = ['stream-capacity', 'stream-fanout'];
/** Scenarios that start what they need themselves: the embedded app is not needed for them. */
const SELF_CONTAINED_SCENARIOS: ScenarioName[] = [
  'rule-matching',
  'answers',
  'cluster-delivery',
  'webhook-delivery',
  'webhook-delivery-cluster',
  'webhook-isolation',
  'reply-latency',
  'knowledge-isolation',
  'widget',
  'whatsapp',
];

/** Scenarios 1–5 and 7 and the start-up time, on one instance with a fresh SQLite database. */
async function runEmbedded(options: BenchOptions, report: Report, workDir: string): Promise<void> {
  const { sizes, scenarios } = options;
  const key = randomApiKey();
  const databaseUrl = `sqlite:${join(workDir, 'data', 'console.sqlite')}`;
  const env = { DATABASE_URL: databaseUrl, CONSOLE_BOOTSTRAP_KEY: key };
  await runScenario(report, 'startup', sizes, () => measureStartup(sizes, workDir, env));
  progress('starting the app (dist/main.js) on a fresh SQLite database');
  let app: AppInstance = await startApp('app', env, workDir);
  try {
    const seed = await seedLoadData(new ApiClient(app.origin, key), sizes);
    // Built per scenario: the restart below moves the app to another port.
    const context = (): EmbeddedContext => ({
      sizes,
      app,
      api: new ApiClient(app.origin, key),
      seed,
      database: 'sqlite',
      instances: [app],
    });
    const api = context().api;
    const req = { api, seed, database: 'sqlite' as const, databaseUrl, workDir, sizes, scenarios };
    await withBaselines(req, report, (baselines, loads) =>
      runLoadScenarios(report, scenarios, () => ({ ...context(), baselines, loads })),
    );
    const run = (name: ScenarioName, scenario: (ctx: EmbeddedContext) => Promise<ScenarioLine>) =>
      scenarios.has(name) ? runScenario(report, name, sizes, () => scenario(context())) : undefined;
    // A fresh process (same database) before stream memory is measured, from an idle baseline.
    const restart = async (before: string) => {
      progress(`restarting the app before ${before}`);
      await app.stop();
      app = await startApp('app', env, workDir);
    };
    if (STREAM_SCENARIOS.some((name) => scenarios.has(name))) {
      await restart('the stream scenarios');
      await run('stream-capacity', streamCapacity);
      await run('stream-fanout', streamFanout);
    }
    if (scenarios.has('stream-stalled-replay')) {
      progress(`seeding a conversation of ${sizes.stalledReplayMessages} long messages`);
      const long = await seedLongConversation(
        context().api,
        seed.agentId,
        sizes.stalledReplayMessages,
      );
      await restart('stream-stalled-replay');
      await run('stream-stalled-replay', (ctx) => streamStalledReplay(ctx, long));
    }
    // Last: its 120,000 conversations would otherwise sit under the scenarios above.
    await run('inbox-list', (ctx) => inboxList(ctx, { databaseUrl, env }));
  } finally {
    await app.stop();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  installExitHandlers();
  const started = performance.now();
  const report = new Report();
  const workDir = mkdtempSync(join(tmpdir(), 'console-bench-'));
  removeAtExit(workDir);
  progress(
    `mode ${options.sizes.mode}; databases: ${options.databases.join(', ')}; ` +
      `scenarios: ${[...options.scenarios].join(', ')}`,
  );
  try {
    if (options.scenarios.has('rule-matching')) {
      // In this process, before any server starts, so that nothing else runs meanwhile.
      await runScenario(report, 'rule-matching', options.sizes, () => ruleMatching(options.sizes));
    }
    if (options.scenarios.has('answers')) {
      await runScenario(report, 'answers', options.sizes, () => answers(options.sizes, workDir));
    }
    const needsEmbedded = [...options.scenarios].some(
      (name) => !SELF_CONTAINED_SCENARIOS.includes(name),
    );
    if (options.databases.includes('sqlite') && needsEmbedded) {
      try {
        await runEmbedded(options, report, workDir);
      } catch (error) {
        progress(`embedded run stopped: ${String((error as Error)?.stack ?? error)}`);
      }
    }
    if (options.databases.includes('postgres')) {
      try {
        await runPostgres(options, report, workDir);
      } catch (error) {
        progress(`PostgreSQL run stopped: ${String((error as Error)?.stack ?? error)}`);
      }
    }
    if (options.scenarios.has('webhook-delivery')) {
      await runScenario(report, 'webhook-delivery', options.sizes, () =>
        webhookDelivery(options.sizes, workDir, 'sqlite'),
      );
    }
    if (options.scenarios.has('webhook-delivery-cluster')) {
      await runScenario(report, 'webhook-delivery-cluster', options.sizes, () =>
        webhookDelivery(options.sizes, workDir, 'cluster'),
      );
    }
    if (options.scenarios.has('webhook-isolation')) {
      await runScenario(report, 'webhook-isolation', options.sizes, () =>
        webhookIsolation(options.sizes, workDir),
      );
    }
    if (options.scenarios.has('reply-latency')) {
      await runScenario(report, 'reply-latency', options.sizes, () =>
        replyLatency(options.sizes, workDir),
      );
    }
    if (options.scenarios.has('knowledge-isolation')) {
      await runScenario(report, 'knowledge-isolation', options.sizes, () =>
        knowledgeIsolation(options.sizes, workDir),
      );
    }
    if (options.scenarios.has('widget')) {
      await runScenario(report, 'widget', options.sizes, () => widget(options.sizes, workDir));
    }
    if (options.scenarios.has('whatsapp')) {
      await runScenario(report, 'whatsapp', options.sizes, () => whatsapp(options.sizes, workDir));
    }
    if (options.scenarios.has('cluster-delivery')) {
      await runScenario(report, 'cluster-delivery', options.sizes, () =>
        clusterDelivery(options.sizes, workDir),
      );
    }
  } finally {
    await runCleanup();
  }
  const file = report.save();
  process.stdout.write(`\n${renderTable(report.lines)}\n\n`);
  progress(`done in ${((performance.now() - started) / 1000).toFixed(0)} s; lines in ${file}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exitCode = 1;
});
