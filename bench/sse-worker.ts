import { API, ApiClient } from '../test/support/api-client';
import {
  ApiTarget,
  ClosedAnswer,
  DeliveredAnswer,
  OpenCommand,
  OpenedAnswer,
  PostCommand,
  SseAnswer,
  SseCommand,
} from './lib/sse-protocol';
import { EventStream, openEventStream, SseFrame } from './lib/sse-stream';
import { summarize } from './lib/stats';
import { closeVisitors, openVisitors, postAsVisitors } from './lib/widget-visitors';
import { serveParent } from './lib/worker';

/**
 * The SSE client: opens many streams and times deliveries, in a process of its own. It both
 * posts and receives, so sending and arrival are read from one clock.
 */

const MAX_ERRORS = 5;

interface Subscriber {
  conversationId: string;
  stream: EventStream;
}

const subscribers: Subscriber[] = [];
/** performance.now() of every arrival of every message id, across all subscribers. */
const arrivals = new Map<string, number[]>();
let messageFrames = 0;
/** Requests (tickets, posts) share a few kept-alive connections per target, not one socket each. */
const clients = new Map<string, ApiClient>();

function clientOf(target: ApiTarget): ApiClient {
  const id = `${target.origin} ${target.key}`;
  let client = clients.get(id);
  if (!client) {
    client = new ApiClient(target.origin, target.key, { maxSockets: 64, timeoutMs: 30_000 });
    clients.set(id, client);
  }
  return client;
}

function conversationPath(target: ApiTarget, conversationId: string): string {
  return `/agents/${target.agentId}/conversations/${conversationId}`;
}

function record(frame: SseFrame): void {
  if (frame.event !== 'message' || frame.id === undefined) {
    return;
  }
  messageFrames++;
  const times = arrivals.get(frame.id);
  if (times) {
    times.push(frame.receivedAt);
  } else {
    arrivals.set(frame.id, [frame.receivedAt]);
  }
}

async function openOne(target: ApiTarget, conversationId: string): Promise<Subscriber> {
  const base = conversationPath(target, conversationId);
  const ticket = await clientOf(target).request('POST', `${base}/stream-ticket`);
  if (ticket.status !== 201) {
    throw new Error(`ticket refused: ${ticket.status} ${ticket.text}`);
  }
  const token = encodeURIComponent(String(ticket.body.data.ticket));
  const stream = await openEventStream(
    `${target.origin}${API}${base}/messages/stream?ticket=${token}`,
    record,
  );
  return { conversationId, stream };
}

async function open(command: OpenCommand): Promise<OpenedAnswer> {
  const started = performance.now();
  const errors: string[] = [];
  let opened = 0;
  for (let first = 0; first < command.count; first += command.batchSize) {
    const size = Math.min(command.batchSize, command.count - first);
    const batch = await Promise.allSettled(
      Array.from({ length: size }, (_, i) =>
        openOne(
          command.target,
          command.conversationIds[(first + i) % command.conversationIds.length],
        ),
      ),
    );
    for (const outcome of batch) {
      if (outcome.status === 'fulfilled') {
        subscribers.push(outcome.value);
        opened++;
      } else if (errors.length < MAX_ERRORS) {
        errors.push(String((outcome.reason as Error)?.message ?? outcome.reason));
      }
    }
  }
  const elapsed = performance.now() - started;
  // Idle kept-alive ticket connections would count as server memory: drop them.
  for (const client of clients.values()) {
    client.close();
  }
  clients.clear();
  return {
    type: 'opened',
    opened,
    failed: command.count - opened,
    elapsed_ms: elapsed,
    opens_per_s: opened / (elapsed / 1000),
    errors,
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function post(command: PostCommand): Promise<DeliveredAnswer> {
  const listening = subscribers.filter(
    (s) => s.conversationId === command.conversationId && s.stream.isOpen(),
  ).length;
  const path = `${conversationPath(command.target, command.conversationId)}/messages`;
  const sentAt = new Map<string, number>();
  const postLatencies: number[] = [];
  const errors: string[] = [];
  const framesBefore = messageFrames;
  for (let i = 0; i < command.messages; i++) {
    const before = performance.now();
    const answer = await clientOf(command.target).request('POST', path, {
      message: `bench fan-out ${i}`,
      role: 'assistant',
    });
    const took = performance.now() - before;
    postLatencies.push(took);
    if (answer.status === 201) {
      sentAt.set(String(answer.body.data.id), before);
    } else if (errors.length < MAX_ERRORS) {
      errors.push(`post refused: ${answer.status} ${answer.text}`);
    }
    await sleep(Math.max(0, command.intervalMs - took));
  }
  const expected = listening * sentAt.size;
  const deadline = performance.now() + command.settleTimeoutMs;
  while (messageFrames - framesBefore < expected && performance.now() < deadline) {
    await sleep(20);
  }
  const latencies: number[] = [];
  for (const [id, sent] of sentAt) {
    for (const receivedAt of arrivals.get(id) ?? []) {
      latencies.push(receivedAt - sent);
    }
  }
  return {
    type: 'delivered',
    subscribers: listening,
    posted: sentAt.size,
    expected,
    delivered: latencies.length,
    latency: summarize(latencies),
    post_latency: summarize(postLatencies),
    errors,
  };
}

function close(): ClosedAnswer {
  const dropped = subscribers.filter((s) => !s.stream.isOpen()).length + closeVisitors();
  for (const subscriber of subscribers) {
    subscriber.stream.close();
  }
  subscribers.length = 0;
  arrivals.clear();
  return { type: 'closed', dropped };
}

serveParent<SseCommand>(async (command): Promise<SseAnswer> => {
  switch (command.type) {
    case 'open':
      return open(command);
    case 'post':
      return post(command);
    case 'close':
      return close();
    case 'widget-open':
      return openVisitors(command);
    case 'widget-post':
      return postAsVisitors(command);
  }
});
