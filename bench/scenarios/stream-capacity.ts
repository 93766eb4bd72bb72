import { progress } from '../lib/log';
import { MIB } from '../lib/memory';
import { sleep } from '../lib/processes';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { SseClient } from '../lib/sse-runner';
import { round } from '../lib/stats';
import { TARGETS } from '../targets';
import { EmbeddedContext } from './context';

const TARGET_STREAMS = 10_000;
/** Lets sockets and buffers of the last opens settle before the server is sampled. */
const QUIET_MS = 1_000;

/**
 * Scenario 4: many idle streams on one instance (spread over the seeded conversations): the
 * server's memory per stream and how long they take to open. With fewer than 10,000 streams
 * (--quick), the RSS at 10,000 is projected from the measured cost per stream.
 */
export async function streamCapacity(ctx: EmbeddedContext): Promise<ScenarioLine> {
  const { app, api, seed, sizes } = ctx;
  const client = SseClient.start('stream-capacity');
  try {
    const before = await app.memory();
    progress(
      `stream-capacity: opening ${sizes.capacityStreams} streams, ${sizes.openBatch} at a time`,
    );
    const opened = await client.open(
      { origin: app.origin, key: api.key, agentId: seed.agentId },
      seed.postConversationIds,
      sizes.capacityStreams,
      sizes.openBatch,
    );
    await sleep(QUIET_MS);
    const after = await app.memory();
    const closed = await client.close();
    const streams = Math.max(1, opened.opened);
    const rssPerStream = (after.rss_bytes - before.rss_bytes) / streams;
    const heapPerStream = (after.heap_used_bytes - before.heap_used_bytes) / streams;
    const projected = opened.opened < TARGET_STREAMS;
    const rssAtTarget = projected
      ? before.rss_bytes + rssPerStream * TARGET_STREAMS
      : after.rss_bytes;
    return scenarioLine(
      'stream-capacity',
      {
        mode: sizes.mode,
        streams: sizes.capacityStreams,
        opened: opened.opened,
        failed: opened.failed,
        dropped: closed.dropped,
        conversations: seed.postConversationIds.length,
        open_batch: sizes.openBatch,
        open_ms: round(opened.elapsed_ms, 0),
        opens_per_s: round(opened.opens_per_s, 1),
        rss_before_mib: round(before.rss_bytes / MIB, 1),
        rss_after_mib: round(after.rss_bytes / MIB, 1),
        heap_before_mib: round(before.heap_used_bytes / MIB, 1),
        heap_after_mib: round(after.heap_used_bytes / MIB, 1),
        rss_kib_per_stream: round(rssPerStream / 1024, 2),
        heap_kib_per_stream: round(heapPerStream / 1024, 2),
        rss_mib_at_10k_streams: round(rssAtTarget / MIB, 1),
        rss_at_10k_projected: projected,
        ...(opened.errors.length > 0 ? { open_errors: opened.errors } : {}),
        note:
          `${opened.opened}/${sizes.capacityStreams} streams opened in ` +
          `${(opened.elapsed_ms / 1000).toFixed(1)} s; per stream ` +
          `${(rssPerStream / 1024).toFixed(1)} KiB RSS, ${(heapPerStream / 1024).toFixed(1)} KiB heap` +
          (projected ? `; RSS at 10k projected from ${opened.opened}` : ''),
      },
      TARGETS['stream-capacity'],
    );
  } finally {
    await client.stop();
  }
}
