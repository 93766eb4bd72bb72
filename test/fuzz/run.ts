import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { createTestDatabase } from '../factories/test-database';
import { AppProcess, startApp } from '../support/app-process';
import { startFakeProviders } from '../support/fake-providers';
import { randomApiKey } from '../support/keys';
import { killStartedProcesses } from '../support/managed-process';
import { ContractChecker, Observed, strictQueryProblems } from './checker';
import { OpenApiDocument, operationsOf } from '../support/openapi';
import { parseOptions } from './options';
import { FuzzReport, HandlerAnswer } from './report';
import { hintsFor } from './hints';
import { FuzzRequest, requestArbitrary } from './requests';
import { API } from '../support/api-client';
import { AGENT, learnCreated, WEBCHAT } from './resources';
import { createKeys, Seeder } from './seed';
import { Sender, TransportError } from './send';

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Operations the run cannot get past their guards, and why. Every other operation of the document
 * must answer at least one request from its handler (see `FuzzReport.neverHandled`): a route added
 * to the app is in the document (test/e2e/routes.e2e-spec.ts), so it is fuzzed, and the run fails
 * until its records are seeded well enough for requests to reach it.
 */
/** Below this many requests per operation, a rare success may well not come up: not required. */
const MIN_PER_OPERATION = 100;

const NEVER_HANDLED: Record<string, string> = {
  [`GET ${API}/agents/{agentId}/action-runs/{runId}`]: 'action runs need an MCP server or API',
  [`POST ${API}/agents/{agentId}/action-runs/{runId}/approve`]: 'likewise',
  [`POST ${API}/agents/{agentId}/action-runs/{runId}/reject`]: 'likewise',
};

/** The code and message of an error response, if it is one. */
function errorOf(response: Observed): { code?: string; message?: string } {
  try {
    return JSON.parse(response.text) ?? {};
  } catch {
    return {};
  }
}

/**
 * Refusals that only the operation's handler gives: they count as reaching it. Connecting a
 * channel type other than the web chat is refused by design (telephony) or not offered yet.
 */
const HANDLER_ANSWERS: Record<string, HandlerAnswer> = {
  [`POST ${AGENT}/channels/{type}/connect`]: (response) =>
    response.status === 400 &&
    errorOf(response).code === 'bad_request' &&
    /cannot be connected/.test(String(errorOf(response).message)),
  // Meta's channels need PUBLIC_URL, which the fuzzed app leaves unset: the handler says so.
  ...Object.fromEntries(
    ['whatsapp', 'messenger', 'instagram'].map((type) => [
      `POST ${AGENT}/channels/${type}/connect`,
      (response: Observed) =>
        response.status === 400 && /PUBLIC_URL/.test(String(errorOf(response).message)),
    ]),
  ),
  // The seeded messages carry no media: the handler looks and answers that it has none.
  [`GET ${AGENT}/conversations/{conversationId}/messages/{messageId}/attachments/{index}`]: (
    response: Observed,
  ) => response.status === 404 && errorOf(response).message === 'Attachment not found',
  // The providers' webhook finds its channel by the URL: the fuzzed app has none connected.
  ...Object.fromEntries(
    ['GET', 'POST'].map((method) => [
      `${method} /api/v1/channels/{channelId}/webhook`,
      (response: Observed) =>
        response.status === 404 && errorOf(response).message === 'Channel not found',
    ]),
  ),
};

/** Keeps the known records in step with what the run created and deleted. */
async function track(request: FuzzRequest, response: Observed, seeder: Seeder): Promise<void> {
  // A 201's new record, or the delivery a webhook's test (200) queues.
  if (request.method === 'POST' && (response.status === 201 || response.status === 200)) {
    const owner = request.tags.includes('auth:other-team') ? 'other' : 'own';
    const { data } = JSON.parse(response.text);
    learnCreated(seeder.resources, request.operation.path, owner, request.pathValues, data);
  }
  // The web chat's key and origins as the run left them, so that widget requests keep working.
  const { agentId, type } = request.pathValues;
  if (request.method === 'POST' && response.status === 200 && agentId) {
    const path = request.operation.path;
    if (path.endsWith('/channels/webchat/connect') && type === undefined) {
      const { data } = JSON.parse(response.text);
      const origins = data.config?.allowed_origins as string[] | undefined;
      seeder.resources.update(WEBCHAT, agentId, {
        key: data.publishable_key,
        ...(origins?.length ? { origin: origins[0] } : {}),
      });
    } else if (path.endsWith('/channels/{type}/disconnect') && type === 'webchat') {
      const owner = request.tags.includes('auth:other-team') ? 'other' : 'own';
      await seeder.reconnectWebchat(owner, agentId);
    }
  }
  // A DELETE of a record (not of a team's settings, which have no id) takes it out of the run.
  const deepest = [...request.operation.path.matchAll(/\{(\w+)\}/g)].pop()?.[1];
  if (request.method === 'DELETE' && response.status === 200 && deepest) {
    seeder.resources.forget(request.pathValues[deepest]);
    await seeder.replenish();
  }
}

async function fuzz(
  app: AppProcess,
  env: Record<string, string>,
  options: ReturnType<typeof parseOptions>,
) {
  const document = (await (await fetch(`${app.url}${API}/openapi.json`)).json()) as OpenApiDocument;
  const operations = operationsOf(document);
  const keys = await createKeys(env, env.CONSOLE_BOOTSTRAP_KEY);
  const seeder = new Seeder(app.url, keys);
  const resources = seeder.resources;
  await seeder.replenish();
  await seeder.seedPhoneNumbers(env);
  await seeder.seedWebhooks();
  await seeder.createAgentLimitedKey(env, keys);
  const context = { document, resources, keys, hints: hintsFor(resources) };
  // No bias towards small values: the hostile variants already are the edge cases.
  const arbitraries = operations.map((operation) =>
    fc.noBias(requestArbitrary(operation, context)),
  );
  const checker = new ContractChecker(document);
  const report = new FuzzReport(HANDLER_ANSWERS);
  const sender = new Sender(app.url, options.concurrency, keys.own);
  log(
    `fuzz: ${operations.length} operations, ${options.requests} requests, ${options.concurrency} at a time`,
  );
  const sendingFrom = performance.now();

  let next = 0;
  const progressStep = Math.max(1, Math.floor(options.requests / 10));
  const worker = async () => {
    while (next < options.requests) {
      const index = next++;
      // Operations in turn, so each gets its share; one seed per request, so that `--seed`
      // regenerates the same request at the same index.
      const arbitrary = arbitraries[index % arbitraries.length];
      const [request] = fc.sample(arbitrary, { seed: options.seed + index, numRuns: 1 });
      const sentAt = performance.now();
      try {
        const response = await sender.send(request);
        const problems = [
          ...checker.check(request.operation, response),
          ...strictQueryProblems(request.operation, request.tags, response.status),
        ];
        report.record(request, response, problems, performance.now() - sentAt);
        if (problems.length === 0) {
          await track(request, response, seeder);
        }
      } catch (error) {
        if (!(error instanceof TransportError)) {
          throw error;
        }
        const failure = `no response: ${error.message.slice(0, 80)}`;
        const nothing = { status: 0, headers: {}, text: error.message };
        report.record(request, nothing, [failure], performance.now() - sentAt);
      }
      if ((index + 1) % progressStep === 0) {
        log(`  ${index + 1} requests, ${report.failureCount} failures`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  await sender.close();
  const seconds = (performance.now() - sendingFrom) / 1000;
  log(
    `fuzz: sent in ${seconds.toFixed(1)} s (${Math.round(options.requests / seconds)} requests/s)`,
  );
  return { report, operations };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const kind = options.postgresUrl ? 'postgres' : 'sqlite';
  log(`fuzz: seed ${options.seed} on ${kind} (replay with --seed=${options.seed})`);
  const startedAt = performance.now();
  const database = await createTestDatabase(options.postgresUrl ?? '');
  // Connectors check their keys with the provider: local fakes accept any the fuzzer sends.
  const providers = await startFakeProviders();
  const env = {
    ...providers.env,
    DATABASE_URL: database.url,
    NODE_ENV: 'production',
    CONSOLE_BOOTSTRAP_KEY: randomApiKey(),
    CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
    // The limiter still counts every request, but the run must not be throttled into 429s.
    RATE_LIMIT_MAX: '1000000000',
    // Integrations point at a closed port on 127.0.0.1: nothing the fuzzer sends leaves the machine.
    OUTBOUND_ALLOW_PRIVATE: 'true',
    OUTBOUND_TIMEOUT_MS: '2000',
    // The run creates agents at will; the quota's 403 is covered by the agents e2e tests.
    AGENT_QUOTA: '1000000',
    // Likewise the web chat's limits on visitors and their messages (its 429 is e2e-tested).
    WIDGET_RATE_LIMIT_MAX: '100000',
  };
  let app: AppProcess | undefined;
  try {
    app = await startApp(env, { name: 'fuzz', readyTimeoutMs: 60_000 });
    const { report, operations } = await fuzz(app, env, options);
    report.print(log);
    const problems: string[] = [];
    const missing = report.missing(operations.map((operation) => operation.name));
    if (missing.length > 0) {
      problems.push(`operations never reached: ${missing.join(', ')}`);
    }
    const unhandled = report
      .neverHandled(operations.map((operation) => operation.name))
      .filter((name) => !(name in NEVER_HANDLED));
    if (unhandled.length > 0 && options.requests >= operations.length * MIN_PER_OPERATION) {
      problems.push(`operations whose handler no request reached: ${unhandled.join(', ')}`);
    } else if (unhandled.length > 0) {
      log(
        `(too few requests to require each handler be reached; not reached: ${unhandled.length})`,
      );
    }
    if (app.loggedErrors().length > 0) {
      problems.push(`the server logged errors:\n${app.loggedErrors().join('\n')}`);
    }
    if (!app.isRunning()) {
      problems.push(`the server exited:\n${app.tail()}`);
    }
    problems.forEach((problem) => log(`✗ ${problem}`));
    const failures = report.failureCount + problems.length;
    const seconds = Math.round((performance.now() - startedAt) / 100) / 10;
    log(
      JSON.stringify({
        fuzz: kind,
        seed: options.seed,
        requests: report.requests,
        operations: report.operationCount,
        failures,
        seconds,
      }),
    );
    return failures === 0 ? 0 : 1;
  } finally {
    await app?.stop();
    await providers.close();
    await database.drop();
  }
}

// An unexpected crash of the fuzzer must not leave the server running.
process.on('exit', killStartedProcesses);

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fuzz: ${String((error as Error)?.stack ?? error)}\n`);
    process.exit(2);
  },
);
