import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWidgetIfStale, WIDGET_BUNDLE } from '../../scripts/build-widget';
import { ApiClient } from '../../test/support/api-client';
import { randomApiKey } from '../../test/support/keys';
import { AppInstance, startApp } from '../lib/app-instance';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { SseClient } from '../lib/sse-runner';
import { round } from '../lib/stats';
import { TARGETS } from '../targets';

const PAGE_ORIGIN = 'https://shop.bench.example';
const RULE_REPLY = 'Hi from the shop!';
const SETTLE_TIMEOUT_MS = 30_000;
/** Visitors set up (session, first message and its reply, ticket, stream) at once. */
const OPEN_BATCH = 50;
/** A round: each visitor sends one message, the visitors' messages spread evenly over it. */
const ROUND_MS = 5_000;

/**
 * The web chat (docs/api.md §7): 200 visitors at once, each with its widget stream open (ticket,
 * then GET /stream with the page's Origin), send messages that a workflow rule answers (the
 * built-in engine, no model); the figure is each visitor's POST → the reply's frame on its own
 * stream, with every visitor sending one message per ROUND_MS (the target's figure), then in one
 * burst where all of them send at the same moment (burst_*, a figure to read). Also the size of
 * widget.js, gzipped, as GET /widget.js serves it.
 */
export async function widget(sizes: Sizes, workDir: string): Promise<ScenarioLine> {
  // `nest build` empties dist/: the bundle served as /widget.js is built again when missing.
  buildWidgetIfStale();
  const bundle = readFileSync(WIDGET_BUNDLE);
  const key = randomApiKey();
  let app: AppInstance | undefined;
  const client = SseClient.start('widget');
  try {
    app = await startApp(
      'widget',
      {
        DATABASE_URL: `sqlite:${join(workDir, 'widget', 'console.sqlite')}`,
        CONSOLE_BOOTSTRAP_KEY: key,
        // Every visitor here comes from 127.0.0.1: the per-address limit must not refuse them.
        WIDGET_RATE_LIMIT_MAX: '100000',
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
      description: 'Answers visitors of the shop',
      // A message the rule answers only in part is handed to the team; the figure is the replies'.
      handoff_pauses_ai: false,
    });
    const connected = await api.data('POST', `/agents/${agent.id}/channels/webchat/connect`, 200, {
      allowed_origins: [PAGE_ORIGIN],
    });
    const served = await fetch(`${app.origin}/widget.js`);
    const servedBytes = (await served.arrayBuffer()).byteLength;
    if (served.status !== 200 || servedBytes !== bundle.length) {
      throw new Error(`GET /widget.js: ${served.status}, ${servedBytes} bytes, not the bundle`);
    }
    api.close();
    const target = {
      origin: app.origin,
      publishableKey: String(connected.publishable_key),
      pageOrigin: PAGE_ORIGIN,
    };

    progress(`widget: ${sizes.widgetVisitors} visitors, each with its widget stream`);
    const opened = await client.openVisitors(
      target,
      sizes.widgetVisitors,
      'hello',
      OPEN_BATCH,
    );
    progress(
      `widget: ${sizes.widgetRounds} rounds of ${ROUND_MS} ms, one message per visitor each`,
    );
    const delivered = await client.postAsVisitors(
      target,
      sizes.widgetRounds,
      ROUND_MS,
      'hello again',
      SETTLE_TIMEOUT_MS,
    );
    progress(`widget: ${opened.opened} messages sent at the same moment`);
    const burst = await client.postAsVisitors(
      target,
      1,
      0,
      'hello once more',
      SETTLE_TIMEOUT_MS,
    );
    const closed = await client.close();
    const gzipped = gzipSync(bundle).length;
    const errors = [...opened.errors, ...delivered.errors, ...burst.errors];
    return scenarioLine(
      'widget',
      {
        mode: sizes.mode,
        visitors: sizes.widgetVisitors,
        opened: opened.opened,
        failed: opened.failed,
        dropped: closed.dropped,
        rounds: sizes.widgetRounds,
        posted: delivered.posted,
        replied: delivered.replied,
        p50_ms: round(delivered.latency.p50, 1),
        p90_ms: round(delivered.latency.p90, 1),
        p99_ms: round(delivered.latency.p99, 1),
        max_ms: round(delivered.latency.max, 1),
        post_p50_ms: round(delivered.post_latency.p50, 1),
        post_p99_ms: round(delivered.post_latency.p99, 1),
        messages_per_s: round(sizes.widgetVisitors / (ROUND_MS / 1000), 1),
        burst_replied: burst.replied,
        burst_p50_ms: round(burst.latency.p50, 1),
        burst_p99_ms: round(burst.latency.p99, 1),
        burst_post_p99_ms: round(burst.post_latency.p99, 1),
        widget_js_bytes: bundle.length,
        widget_js_gzip_kib: round(gzipped / 1024, 1),
        ...(errors.length > 0 ? { errors } : {}),
        note:
          `${opened.opened} visitors with their widget streams open (Origin ${PAGE_ORIGIN}), ` +
          `each sending one message per ${ROUND_MS / 1000} s, answered by a workflow rule: ` +
          'visitor POST → the reply frame on that visitor’s stream; burst_*: all of them at the ' +
          'same moment; widget.js gzipped (level 6)',
      },
      TARGETS.widget,
    );
  } finally {
    await client.stop();
    await app?.stop();
  }
}
