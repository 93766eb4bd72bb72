import { join } from 'node:path';
import { ApiClient } from '../../test/support/api-client';
import { clusterEnv } from '../../test/support/cluster-env';
import { randomApiKey } from '../../test/support/keys';
import { WebhookReceiver } from '../../test/support/webhook-receiver';
import { AppInstance, startApp } from '../lib/app-instance';
import { onCleanup } from '../lib/cleanup';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { sleep } from '../lib/processes';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round, summarize } from '../lib/stats';
import { seedConversations, seedWorkflows } from '../lib/seed';
import { TARGETS } from '../targets';

const CONVERSATIONS = 20;
const CONCURRENCY = 16;
const DELIVERY_TIMEOUT_MS = 120_000;

/**
 * Events out: messages posted (role assistant, so no reply is produced) to conversations whose
 * agent's team has one endpoint subscribed to `message.created`, on a local receiver. Figures:
 * events delivered per second (first post → last arrival) and the delay from each message's
 * commit (its `created_at`) to its arrival. One instance on SQLite, or (`cluster`) two on
 * PostgreSQL with posts spread over both.
 */
export async function webhookDelivery(
  sizes: Sizes,
  workDir: string,
  mode: 'sqlite' | 'cluster',
): Promise<ScenarioLine> {
  const name = mode === 'cluster' ? 'webhook-delivery-cluster' : 'webhook-delivery';
  const receiver = await WebhookReceiver.start();
  const instances: AppInstance[] = [];
  let cleanup = async () => undefined as void;
  try {
    let key: string;
    if (mode === 'cluster') {
      const cluster = await clusterEnv({ LOG_LEVEL: 'warn' });
      cleanup = onCleanup('drop the PostgreSQL database and the Redis keys', cluster.cleanup);
      key = cluster.key;
      progress(`${name}: starting instances A and B on PostgreSQL + Redis`);
      instances.push(await startApp('webhooks-a', cluster.env, workDir));
      instances.push(await startApp('webhooks-b', cluster.env, workDir));
    } else {
      key = randomApiKey();
      progress(`${name}: starting the app on a fresh SQLite database`);
      const env = {
        DATABASE_URL: `sqlite:${join(workDir, 'data', 'webhooks.sqlite')}`,
        CONSOLE_BOOTSTRAP_KEY: key,
        OUTBOUND_ALLOW_PRIVATE: 'true',
      };
      instances.push(await startApp('webhooks', env, workDir));
    }
    const clients = instances.map((instance) => new ApiClient(instance.origin, key));
    const api = clients[0];
    await api.data('POST', '/webhooks', 201, { url: receiver.url, events: ['message.created'] });
    const [workflowId] = await seedWorkflows(api, 1);
    const agent = await api.data('POST', '/agents', 201, {
      workflow_id: workflowId,
      name: 'W',
      description: 'Webhook bench',
    });
    const conversations = await seedConversations(api, String(agent.id), CONVERSATIONS, 'hooks');
    await receiver.waitFor((all) => all.length >= CONVERSATIONS, DELIVERY_TIMEOUT_MS);
    receiver.received.length = 0;

    const events = sizes.webhookEvents;
    progress(`${name}: posting ${events} messages, ${CONCURRENCY} at a time`);
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < events) {
          const index = next++;
          await clients[index % clients.length].data(
            'POST',
            `/agents/${String(agent.id)}/conversations/${conversations[index % CONVERSATIONS]}/messages`,
            201,
            { message: `event ${index}`, role: 'assistant' },
          );
        }
      }),
    );
    const postedMs = Date.now() - started;
    await receiver.waitFor((all) => all.length >= events, DELIVERY_TIMEOUT_MS);
    await sleep(1_000);
    const arrivals = receiver.received;
    const lastArrival = Math.max(...arrivals.map((event) => event.at));
    const delays = summarize(
      arrivals.map((event) => event.at - Date.parse(String(event.body.data.created_at))),
    );
    const distinct = new Set(arrivals.map((event) => event.body.id)).size;
    return scenarioLine(
      name,
      {
        mode: sizes.mode,
        rps: round((events / (lastArrival - started)) * 1000, 0),
        events_per_s: round((events / (lastArrival - started)) * 1000, 0),
        p50_ms: round(delays.p50, 1),
        p99_ms: round(delays.p99, 1),
        max_ms: round(delays.max, 1),
        events,
        received: arrivals.length,
        duplicates: arrivals.length - distinct,
        posted_per_s: round((events / postedMs) * 1000, 0),
        note: `${events} message.created events to one endpoint on 127.0.0.1; delay = message created_at → arrival`,
      },
      TARGETS[name] ?? [],
    );
  } finally {
    for (const instance of instances) {
      await instance.stop();
    }
    await receiver.close();
    await cleanup();
  }
}
