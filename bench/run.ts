import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../test/support/api-client';
import { randomApiKey } from '../test/support/keys';
import { AppInstance, startApp } from './lib/app-instance';
import { installExitHandlers, removeAtExit, runCleanup } from './lib/cleanup';
import { progress } from './lib/log';
import { BenchOptions, parseOptions, ScenarioName, Sizes } from './lib/options';
import { Report, ScenarioLine, scenarioLine } from './lib/report';
import {
  seedAgent,
  seedConversations,
  seedLongConversation,
  seedWorkflows,
  workflowEnvelope,
} from './lib/seed';
import { renderTable } from './lib/table';
import { clusterDelivery } from './scenarios/cluster-delivery';
import { EmbeddedContext, EmbeddedSeed, Floors } from './scenarios/context';
import { measureFloors } from './scenarios/floors';
import { measureStartup } from './scenarios/startup';
import { postMessages } from './scenarios/message-posts';
import { replyLatency } from './scenarios/reply-latency';
import { ruleMatching } from './scenarios/rule-matching';
import { streamCapacity } from './scenarios/stream-capacity';
import { streamFanout } from './scenarios/stream-fanout';
import { streamStalledReplay } from './scenarios/stream-stalled-replay';
import { getWorkflow, listWorkflows } from './scenarios/workflow-reads';
import { TARGETS } from './targets';

/**
 * `npm run bench`: starts the built app and the baselines as processes of their own, runs the
 * scenarios one after another, prints one JSON line per scenario and a table. Figures are
 * reported against their targets; a missed target never fails the run.
 */

const WARMUP_CONVERSATIONS = 10;
const LOAD_SCENARIOS: ScenarioName[] = ['get-workflow', 'list-workflows', 'post-messages'];
const STREAM_SCENARIOS: ScenarioName[] = ['stream-capacity', 'stream-fanout'];

async function runScenario(
  report: Report,
  name: string,
  sizes: Sizes,
  scenario: () => Promise<ScenarioLine>,
): Promise<void> {
  progress(`${name}: running`);
  try {
    report.add(await scenario());
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    progress(`${name}: failed: ${message}`);
    report.add(scenarioLine(name, { mode: sizes.mode, error: message }, TARGETS[name] ?? []));
  }
}

async function seedEmbedded(api: ApiClient, sizes: Sizes): Promise<EmbeddedSeed> {
  progress(`seeding ${sizes.workflows} workflows, an agent and conversations through the API`);
  const workflowIds = await seedWorkflows(api, sizes.workflows);
  const agentId = await seedAgent(api, workflowIds[0]);
  return {
    workflowId: workflowIds[0],
    agentId,
    postConversationIds: await seedConversations(api, agentId, sizes.postConversations, 'load'),
    warmupConversationIds: await seedConversations(api, agentId, WARMUP_CONVERSATIONS, 'warm'),
    fanoutConversationId: (await seedConversations(api, agentId, 1, 'fanout'))[0],
  };
}

/** Scenarios 1–5 and 7 and the start-up time, on one instance with a fresh SQLite database. */
async function runEmbedded(options: BenchOptions, report: Report, workDir: string): Promise<void> {
  const { sizes, scenarios } = options;
  const key = randomApiKey();
  const env = {
    DATABASE_URL: `sqlite:${join(workDir, 'data', 'console.sqlite')}`,
    CONSOLE_BOOTSTRAP_KEY: key,
  };
  await runScenario(report, 'startup', sizes, () => measureStartup(sizes, workDir, env));
  progress('starting the app (dist/main.js) on a fresh SQLite database');
  let app: AppInstance = await startApp('app', env, workDir);
  try {
    const api = new ApiClient(app.origin, key);
    const seed = await seedEmbedded(api, sizes);
    let floors: Floors = { node: null, nest: null };
    if (LOAD_SCENARIOS.some((name) => scenarios.has(name))) {
      floors = await measureFloors(
        await workflowEnvelope(api, seed.workflowId),
        workDir,
        sizes,
        report,
      );
    }
    // Built per scenario: the restart below moves the app to another port.
    const context = (): EmbeddedContext => ({
      sizes,
      app,
      api: new ApiClient(app.origin, key),
      seed,
      floors,
    });
    const run = (name: ScenarioName, scenario: (ctx: EmbeddedContext) => Promise<ScenarioLine>) =>
      scenarios.has(name) ? runScenario(report, name, sizes, () => scenario(context())) : undefined;
    await run('get-workflow', getWorkflow);
    await run('list-workflows', listWorkflows);
    await run('post-messages', postMessages);
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
  progress(`mode ${options.sizes.mode}; scenarios: ${[...options.scenarios].join(', ')}`);
  try {
    if (options.scenarios.has('rule-matching')) {
      // In this process, before any server starts, so that nothing else runs meanwhile.
      await runScenario(report, 'rule-matching', options.sizes, () => ruleMatching(options.sizes));
    }
    try {
      await runEmbedded(options, report, workDir);
    } catch (error) {
      progress(`embedded run stopped: ${String((error as Error)?.stack ?? error)}`);
    }
    if (options.scenarios.has('reply-latency')) {
      await runScenario(report, 'reply-latency', options.sizes, () =>
        replyLatency(options.sizes, workDir),
      );
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
