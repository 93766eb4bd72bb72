import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { ApiClient } from '../../test/support/api-client';
import {
  FakeGraphApi,
  signMeta,
  whatsappTextNotification,
} from '../../test/support/fake-graph-api';
import { randomApiKey } from '../../test/support/keys';
import { AppInstance, startApp } from '../lib/app-instance';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { sleep } from '../lib/processes';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round, summarize } from '../lib/stats';
import { TARGETS } from '../targets';

const APP_SECRET = 'bench-app-secret';
const RULE_REPLY = 'Hi from the shop!';
/** Notifications in flight at once while intake is measured. */
const CONCURRENCY = 20;
/** Paced customers: one notification every 1000 / PACE_PER_S ms. */
const PACE_PER_S = 40;
const SEND_TIMEOUT_MS = 180_000;

/** The first send the fake Graph API received for each customer, and how many in all. */
class Sends {
  readonly first = new Map<string, number>();
  readonly count = new Map<string, number>();
  private seen = 0;

  constructor(private readonly graph: FakeGraphApi) {}

  private scan(): void {
    const requests = this.graph.requests;
    for (; this.seen < requests.length; this.seen++) {
      const sent = requests[this.seen];
      const to = (sent.body as { to?: unknown } | null)?.to;
      if (sent.route !== 'messages' || typeof to !== 'string') {
        continue;
      }
      if (!this.first.has(to)) {
        this.first.set(to, sent.receivedAt);
      }
      this.count.set(to, (this.count.get(to) ?? 0) + 1);
    }
  }

  /** Waits until every customer has had a send; false when the time ran out first. */
  async waitFor(customers: string[], timeoutMs = SEND_TIMEOUT_MS): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      this.scan();
      if (customers.every((from) => this.first.has(from))) {
        return true;
      }
      if (performance.now() > deadline) {
        return false;
      }
      await sleep(10);
    }
  }
}

/**
 * WhatsApp (docs/api.md §4d) on one instance on SQLite, Meta being a fake Graph API in this
 * process: signed text notifications that a workflow rule answers (the built-in engine). Figures:
 * notification POST → the reply's send request at the fake, for customers paced PACE_PER_S a
 * second (then all at once: burst_*), and signed notifications answered 200 per second with
 * CONCURRENCY in flight, each a new customer whose reply is sent afterwards (drain_ms).
 */
export async function whatsapp(sizes: Sizes, workDir: string): Promise<ScenarioLine> {
  const graph = await FakeGraphApi.start();
  const http = new Agent({ keepAlive: true });
  let app: AppInstance | undefined;
  try {
    const key = randomApiKey();
    app = await startApp(
      'whatsapp',
      {
        DATABASE_URL: `sqlite:${join(workDir, 'whatsapp', 'console.sqlite')}`,
        CONSOLE_BOOTSTRAP_KEY: key,
        PUBLIC_URL: 'https://console.bench.example',
        META_GRAPH_BASE_URL: graph.url,
      },
      workDir,
    );
    const api = new ApiClient(app.origin, key);
    const workflow = await api.data('POST', '/workflows', 201, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hello', response: RULE_REPLY, enabled: true }],
    });
    const agent = await api.data('POST', '/agents', 201, {
      workflow_id: workflow.id,
      name: 'Shop helper',
      description: 'Answers customers on WhatsApp',
    });
    const channel = await api.data('POST', `/agents/${agent.id}/channels/whatsapp/connect`, 200, {
      phone_number_id: graph.options.phoneNumberId,
      access_token: graph.options.accessToken,
      app_secret: APP_SECRET,
    });
    api.close();
    const webhook = `${app.origin}/api/v1/channels/${channel.id}/webhook`;
    const sends = new Sends(graph);
    let customers = 0;
    const newCustomer = () => `2348${String(customers++).padStart(9, '0')}`;
    const notify = (from: string): Promise<number> => {
      const raw = JSON.stringify(
        whatsappTextNotification({
          phoneNumberId: graph.options.phoneNumberId,
          from,
          text: 'hello',
          id: `wamid.bench-${from}`,
        }),
      );
      return new Promise((resolve, reject) => {
        const req = request(webhook, {
          method: 'POST',
          agent: http,
          headers: {
            'Content-Type': 'application/json',
            'X-Hub-Signature-256': signMeta(raw, APP_SECRET),
          },
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(raw);
      });
    };
    /** Customers' notifications `spacingMs` apart: POST → first send, per customer. */
    const timeReplies = async (count: number, spacingMs: number) => {
      const senders = Array.from({ length: count }, newCustomer);
      const posted = new Map<string, number>();
      const started = performance.now();
      const statuses = await Promise.all(
        senders.map(async (from, i) => {
          await sleep(Math.max(0, started + i * spacingMs - performance.now()));
          posted.set(from, performance.now());
          return notify(from);
        }),
      );
      if (statuses.some((status) => status !== 200)) {
        throw new Error(`webhook answered ${[...new Set(statuses)].join(', ')}`);
      }
      if (!(await sends.waitFor(senders))) {
        throw new Error(`only ${senders.filter((f) => sends.first.has(f)).length} replies sent`);
      }
      return summarize(senders.map((from) => sends.first.get(from)! - posted.get(from)!));
    };

    const count = sizes.whatsappCustomers;
    progress(`whatsapp: ${count} customers, ${PACE_PER_S} notifications a second`);
    await timeReplies(10, 1000 / PACE_PER_S); // warm-up
    const paced = await timeReplies(count, 1000 / PACE_PER_S);
    progress(`whatsapp: ${count} customers at once`);
    const burst = await timeReplies(count, 0);

    progress(`whatsapp: intake, ${CONCURRENCY} notifications in flight for ${sizes.durationS} s`);
    const intake: string[] = [];
    const acceptMs: number[] = [];
    let refused = 0;
    const started = performance.now();
    const measureFrom = started + sizes.warmupS * 1000;
    const stopAt = measureFrom + sizes.durationS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < stopAt) {
          const from = newCustomer();
          intake.push(from);
          const sent = performance.now();
          const status = await notify(from);
          const answered = performance.now();
          if (answered >= measureFrom && answered < stopAt) {
            acceptMs.push(answered - sent);
            refused += status === 200 ? 0 : 1;
          }
        }
      }),
    );
    const accepted = acceptMs.length - refused;
    const drained = await sends.waitFor(intake);
    const intakeSent = intake.filter((from) => sends.first.has(from));
    const lastSend = Math.max(...intakeSent.map((from) => sends.first.get(from)!));
    const acceptance = summarize(acceptMs);
    await sleep(1_000);
    const duplicates = [...sends.count.values()].reduce((sum, n) => sum + n - 1, 0);
    return scenarioLine(
      'whatsapp',
      {
        mode: sizes.mode,
        rps: round(accepted / sizes.durationS, 0),
        accepted_per_s: round(accepted / sizes.durationS, 0),
        accept_p50_ms: round(acceptance.p50, 1),
        accept_p99_ms: round(acceptance.p99, 1),
        refused,
        p50_ms: round(paced.p50, 1),
        p99_ms: round(paced.p99, 1),
        max_ms: round(paced.max, 1),
        burst_p50_ms: round(burst.p50, 1),
        burst_p99_ms: round(burst.p99, 1),
        customers: count,
        intake_notifications: intake.length,
        intake_sent: intakeSent.length,
        drain_ms: drained ? round(lastSend - stopAt, 0) : null,
        intake_sends_per_s: round((intakeSent.length / (lastSend - started)) * 1000, 0),
        duplicates,
        note:
          `notification POST → reply's send at the fake Graph API, ${count} customers ` +
          `${PACE_PER_S}/s (burst_*: all at once); accepted_per_s: 200s a second, ` +
          `${CONCURRENCY} in flight, ${sizes.durationS} s; drain_ms: last intake POST → its last reply sent`,
      },
      TARGETS.whatsapp,
    );
  } finally {
    await app?.stop();
    http.destroy();
    await graph.close();
  }
}
