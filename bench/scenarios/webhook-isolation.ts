import { join } from 'node:path';
import { ApiClient } from '../../test/support/api-client';
import { createKeyWithCli, createTeamWithCli, randomApiKey } from '../../test/support/keys';
import { SilentServer, startSilentServer } from '../../test/support/silent-server';
import { WebhookReceiver } from '../../test/support/webhook-receiver';
import { AppInstance, startApp } from '../lib/app-instance';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { sleep } from '../lib/processes';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round, summarize } from '../lib/stats';
import { seedConversations, seedWorkflows } from '../lib/seed';
import { TARGETS } from '../targets';

const SILENT_ENDPOINTS = 100;
const NOISY_EVENTS = 10;
const QUIET_EVENTS = 50;
const DELIVERY_TIMEOUT_MS = 60_000;

/** A team with one endpoint on a receiver, an agent and one conversation to post to. */
async function quietTeam(api: ApiClient, receiverUrl: string) {
  await api.data('POST', '/webhooks', 201, { url: receiverUrl, events: ['message.created'] });
  const [workflowId] = await seedWorkflows(api, 1);
  const agent = await api.data('POST', '/agents', 201, {
    workflow_id: workflowId,
    name: 'Q',
    description: 'Quiet team',
  });
  const [conversation] = await seedConversations(api, String(agent.id), 1, 'quiet');
  return `/agents/${String(agent.id)}/conversations/${conversation}/messages`;
}

/** Delays (message created_at → arrival) of `count` operator messages posted one by one. */
async function quietDelays(
  api: ApiClient,
  path: string,
  receiver: WebhookReceiver,
  count: number,
): Promise<number[]> {
  receiver.received.length = 0;
  for (let i = 0; i < count; i++) {
    await api.data('POST', path, 201, { message: `quiet ${i}`, role: 'assistant' });
    await sleep(20);
  }
  await receiver.waitFor((all) => all.length >= count, DELIVERY_TIMEOUT_MS);
  return receiver.received.map(
    (event) => event.at - Date.parse(String(event.body.data.created_at)),
  );
}

/**
 * Fair use between teams, for webhooks: a quiet team's delivery delay alone, then with a noisy
 * team next door whose 100 endpoints never answer (each attempt hangs until the outbound
 * timeout) and that keeps emitting events. Reported: the quiet team's p99 in both rounds and
 * their ratio.
 */
export async function webhookIsolation(sizes: Sizes, workDir: string): Promise<ScenarioLine> {
  const receiver = await WebhookReceiver.start();
  const silent: SilentServer = await startSilentServer();
  let app: AppInstance | undefined;
  try {
    const key = randomApiKey();
    const env = {
      DATABASE_URL: `sqlite:${join(workDir, 'data', 'webhook-isolation.sqlite')}`,
      CONSOLE_BOOTSTRAP_KEY: key,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      WEBHOOK_MAX_ENDPOINTS: String(SILENT_ENDPOINTS),
    };
    progress('webhook-isolation: starting the app on a fresh SQLite database');
    app = await startApp('webhook-isolation', env, workDir);
    await createTeamWithCli(env, 'quiet');
    const quiet = new ApiClient(app.origin, (await createKeyWithCli(env, 'quiet', '*')).key);
    const noisy = new ApiClient(app.origin, key);
    const quietPath = await quietTeam(quiet, receiver.url);

    progress('webhook-isolation: the quiet team alone');
    const alone = summarize(await quietDelays(quiet, quietPath, receiver, QUIET_EVENTS));

    progress(`webhook-isolation: ${SILENT_ENDPOINTS} silent endpoints next door`);
    for (let i = 0; i < SILENT_ENDPOINTS; i++) {
      await noisy.data('POST', '/webhooks', 201, {
        url: `${silent.url}/hook-${i}`,
        events: ['message.created'],
      });
    }
    const [workflowId] = await seedWorkflows(noisy, 1);
    const agent = await noisy.data('POST', '/agents', 201, {
      workflow_id: workflowId,
      name: 'N',
      description: 'Noisy team',
    });
    const [conversation] = await seedConversations(noisy, String(agent.id), 1, 'noisy');
    for (let i = 0; i < NOISY_EVENTS; i++) {
      await noisy.data(
        'POST',
        `/agents/${String(agent.id)}/conversations/${conversation}/messages`,
        201,
        { message: `noisy ${i}`, role: 'assistant' },
      );
    }
    const next = summarize(await quietDelays(quiet, quietPath, receiver, QUIET_EVENTS));
    return scenarioLine(
      'webhook-isolation',
      {
        mode: sizes.mode,
        p99_ms: round(next.p99, 1),
        p50_ms: round(next.p50, 1),
        p99_alone_ms: round(alone.p99, 1),
        ratio_vs_alone: round(next.p99 / Math.max(alone.p99, 1), 2),
        note:
          `${QUIET_EVENTS} events of a quiet team while a team with ${SILENT_ENDPOINTS} ` +
          `endpoints that never answer emits ${NOISY_EVENTS} (${
            SILENT_ENDPOINTS * NOISY_EVENTS
          } hanging deliveries); delay = created_at → arrival`,
      },
      TARGETS['webhook-isolation'] ?? [],
    );
  } finally {
    await app?.stop();
    await silent.close();
    await receiver.close();
  }
}
