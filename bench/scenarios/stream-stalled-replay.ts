import { API } from '../../test/support/api-client';
import { AppInstance } from '../lib/app-instance';
import { progress } from '../lib/log';
import { MemorySample, MIB } from '../lib/memory';
import { sleep } from '../lib/processes';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { LongConversation } from '../lib/seed';
import { openStalledStream } from '../lib/sse-stream';
import { round } from '../lib/stats';
import { TARGETS } from '../targets';
import { EmbeddedContext } from './context';

/** The server is sampled this often until its RSS has not grown for SETTLED_SAMPLES samples. */
const SAMPLE_MS = 500;
const SETTLED_SAMPLES = 4;
const SETTLE_DEADLINE_MS = 30_000;

/** The memory once the server has done all it will for the streams: RSS has stopped growing. */
async function settledMemory(app: AppInstance): Promise<MemorySample> {
  let highest = await app.memory();
  let steady = 0;
  const deadline = Date.now() + SETTLE_DEADLINE_MS;
  while (steady < SETTLED_SAMPLES && Date.now() < deadline) {
    await sleep(SAMPLE_MS);
    const sample = await app.memory();
    steady = sample.rss_bytes > highest.rss_bytes + MIB ? 0 : steady + 1;
    if (sample.rss_bytes > highest.rss_bytes) {
      highest = sample;
    }
  }
  return highest;
}

/**
 * Scenario 7: replay streams (`after` = the first message) on a long conversation of the longest
 * messages, whose clients never read: what each costs the server, started afresh after the
 * seeding. Without backpressure the server would hold each stream's whole replay;
 * `ratio_vs_replay` is the share of it that it holds.
 */
export async function streamStalledReplay(
  ctx: EmbeddedContext,
  conversation: LongConversation,
): Promise<ScenarioLine> {
  const { app, api, seed, sizes } = ctx;
  const streams = sizes.stalledStreams;
  const path = `/agents/${seed.agentId}/conversations/${conversation.conversationId}`;
  const replayBytes = (conversation.messages - 1) * conversation.messageLength;
  const before = await settledMemory(app);
  progress(`stream-stalled-replay: opening ${streams} replay streams that never read`);
  const closers: Array<() => void> = [];
  try {
    for (let i = 0; i < streams; i++) {
      const { ticket } = await api.data('POST', `${path}/stream-ticket`, 201, {});
      closers.push(
        await openStalledStream(
          `${app.origin}${API}${path}/messages/stream?ticket=${encodeURIComponent(ticket)}&after=${conversation.firstMessageId}`,
        ),
      );
    }
    const after = await settledMemory(app);
    const rssPerStream = (after.rss_bytes - before.rss_bytes) / streams;
    const heapPerStream = (after.heap_used_bytes - before.heap_used_bytes) / streams;
    return scenarioLine(
      'stream-stalled-replay',
      {
        mode: sizes.mode,
        streams,
        messages: conversation.messages,
        message_length: conversation.messageLength,
        replay_mib_per_stream: round(replayBytes / MIB, 1),
        rss_before_mib: round(before.rss_bytes / MIB, 1),
        rss_after_mib: round(after.rss_bytes / MIB, 1),
        rss_mib_per_stream: round(rssPerStream / MIB, 3),
        heap_mib_per_stream: round(heapPerStream / MIB, 3),
        ratio_vs_replay: round(rssPerStream / replayBytes, 4),
        note:
          `${streams} streams replaying ${conversation.messages} messages ` +
          `(${(replayBytes / MIB).toFixed(0)} MiB each), never read; per stream ` +
          `${(rssPerStream / MIB).toFixed(2)} MiB RSS, ${(heapPerStream / MIB).toFixed(2)} MiB heap`,
      },
      TARGETS['stream-stalled-replay'],
    );
  } finally {
    closers.forEach((close) => close());
  }
}
