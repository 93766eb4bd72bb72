import { progress } from '../lib/log';
import { Figures } from '../lib/report';
import { ApiTarget } from '../lib/sse-protocol';
import { SseClient } from '../lib/sse-runner';
import { round } from '../lib/stats';

const SETTLE_TIMEOUT_MS = 30_000;

export interface FanoutPlan {
  name: string;
  /** Where the subscribers' streams are opened. */
  streams: ApiTarget;
  /** Where the messages are posted (another instance in the cluster scenario). */
  posts: ApiTarget;
  conversationId: string;
  subscribers: number;
  messages: number;
  intervalMs: number;
  openBatch: number;
}

/**
 * Opens the subscribers on one conversation, posts the messages one after another (operator
 * messages, so that no reply adds frames), and times every delivery to every subscriber.
 */
export async function measureFanout(plan: FanoutPlan): Promise<Figures> {
  const client = SseClient.start(plan.name);
  try {
    progress(`${plan.name}: opening ${plan.subscribers} subscribers`);
    const opened = await client.open(
      plan.streams,
      [plan.conversationId],
      plan.subscribers,
      plan.openBatch,
    );
    progress(`${plan.name}: posting ${plan.messages} messages, one every ${plan.intervalMs} ms`);
    const delivered = await client.post(
      plan.posts,
      plan.conversationId,
      plan.messages,
      plan.intervalMs,
      SETTLE_TIMEOUT_MS,
    );
    await client.close();
    return {
      p50_ms: round(delivered.latency.p50),
      p99_ms: round(delivered.latency.p99),
      max_ms: round(delivered.latency.max),
      mean_ms: round(delivered.latency.mean),
      subscribers: plan.subscribers,
      subscribers_open: delivered.subscribers,
      messages: plan.messages,
      posted: delivered.posted,
      delivered: delivered.delivered,
      expected: delivered.expected,
      post_interval_ms: plan.intervalMs,
      post_p50_ms: round(delivered.post_latency.p50),
      post_p99_ms: round(delivered.post_latency.p99),
      open_ms: round(opened.elapsed_ms, 0),
      note:
        `${plan.subscribers} subscribers × ${plan.messages} messages (one per ${plan.intervalMs} ms); ` +
        `${delivered.delivered}/${delivered.expected} delivered`,
      ...(opened.errors.length + delivered.errors.length > 0
        ? { client_errors: [...opened.errors, ...delivered.errors] }
        : {}),
    };
  } finally {
    await client.stop();
  }
}
