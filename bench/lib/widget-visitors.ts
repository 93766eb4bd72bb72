import { Agent, request } from 'node:http';
import {
  WidgetDeliveredAnswer,
  WidgetOpenCommand,
  WidgetOpenedAnswer,
  WidgetPostCommand,
  WidgetTarget,
} from './sse-protocol';
import { EventStream, openEventStream, SseFrame } from './sse-stream';
import { summarize } from './stats';

/**
 * The SSE client's web-chat visitors (bench/sse-worker.ts): each with its session, its
 * conversation and its widget stream, sending as widget.js does (publishable key, page Origin).
 */

const WIDGET = '/api/v1/widget';
const MAX_ERRORS = 5;
const REPLY_WAIT_MS = 30_000;

interface Visitor {
  token: string;
  stream: EventStream;
  /** Every `message` frame of its stream: the message id and when it was read. */
  frames: { id: string; receivedAt: number }[];
}

interface Answer {
  status: number;
  body: { data?: Record<string, unknown> | Record<string, unknown>[] } | null;
  text: string;
}

const visitors: Visitor[] = [];
/** Requests share a few kept-alive connections, as the pages of many visitors would not, but
 * the figure is the server's: the stream, not the request, is what a visitor holds. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One request of a visitor. A kept-alive socket the server closed as it was reused (ECONNRESET on
 * a reused socket, the race Node's documentation describes) is retried once on a fresh one.
 */
function call(
  target: WidgetTarget,
  method: string,
  path: string,
  body?: unknown,
  retry = true,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(`${target.origin}${WIDGET}${path}`, {
      method,
      agent,
      headers: {
        Authorization: `Bearer ${target.publishableKey}`,
        Origin: target.pageOrigin,
        ...(payload === undefined
          ? {}
          : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
      },
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: timeout`)));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (retry && req.reusedSocket && error.code === 'ECONNRESET') {
        call(target, method, path, body, false).then(resolve, reject);
      } else {
        reject(error);
      }
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let parsed: Answer['body'] = null;
        try {
          parsed = JSON.parse(text) as Answer['body'];
        } catch {
          parsed = null;
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, text });
      });
    });
    req.end(payload);
  });
}

async function expectData(
  answer: Promise<Answer>,
  status: number,
  what: string,
): Promise<Record<string, unknown>> {
  const res = await answer;
  if (res.status !== status || !res.body?.data || Array.isArray(res.body.data)) {
    throw new Error(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
  }
  return res.body.data;
}

async function openVisitor(target: WidgetTarget, message: string): Promise<Visitor> {
  const session = await expectData(call(target, 'POST', '/sessions', {}), 201, 'session');
  const token = String(session.visitor_token);
  await expectData(
    call(target, 'POST', '/messages', { visitor_token: token, message }),
    201,
    'first message',
  );
  // The reply to it is in before the stream opens, so that the timed rounds see only their own.
  const deadline = performance.now() + REPLY_WAIT_MS;
  for (;;) {
    const history = await call(target, 'GET', `/messages?visitor_token=${token}`);
    if (Array.isArray(history.body?.data) && history.body.data.length >= 2) {
      break;
    }
    if (performance.now() > deadline) {
      throw new Error(`no reply to the first message: ${history.status} ${history.text}`);
    }
    await sleep(20);
  }
  const ticket = await expectData(
    call(target, 'POST', '/stream-ticket', { visitor_token: token }),
    201,
    'stream ticket',
  );
  const frames: Visitor['frames'] = [];
  const stream = await openEventStream(
    `${target.origin}${WIDGET}/stream?ticket=${encodeURIComponent(String(ticket.ticket))}`,
    (frame: SseFrame) => {
      if (frame.event === 'message' && frame.id !== undefined) {
        frames.push({ id: frame.id, receivedAt: frame.receivedAt });
      }
    },
    30_000,
    { Origin: target.pageOrigin },
  );
  return { token, stream, frames };
}

export async function openVisitors(command: WidgetOpenCommand): Promise<WidgetOpenedAnswer> {
  const started = performance.now();
  const errors: string[] = [];
  let opened = 0;
  for (let first = 0; first < command.visitors; first += command.batchSize) {
    const size = Math.min(command.batchSize, command.visitors - first);
    const batch = await Promise.allSettled(
      Array.from({ length: size }, () => openVisitor(command.target, command.message)),
    );
    for (const outcome of batch) {
      if (outcome.status === 'fulfilled') {
        visitors.push(outcome.value);
        opened++;
      } else if (errors.length < MAX_ERRORS) {
        errors.push(String((outcome.reason as Error)?.message ?? outcome.reason));
      }
    }
  }
  return {
    type: 'widget-opened',
    opened,
    failed: command.visitors - opened,
    elapsed_ms: performance.now() - started,
    errors,
  };
}

/** One visitor's message: the time from just before its POST to its reply's frame. */
async function timeOne(
  target: WidgetTarget,
  visitor: Visitor,
  message: string,
  settleTimeoutMs: number,
  delayMs: number,
): Promise<{ post: number; reply: number | null }> {
  await sleep(delayMs);
  const seen = visitor.frames.length;
  const before = performance.now();
  const sent = await expectData(
    call(target, 'POST', '/messages', { visitor_token: visitor.token, message }),
    201,
    'message',
  );
  const post = performance.now() - before;
  // Only the visitor and the rules write here: the first other message is the reply.
  const reply = () => visitor.frames.slice(seen).find((frame) => frame.id !== sent.id);
  const deadline = performance.now() + settleTimeoutMs;
  while (!reply() && performance.now() < deadline && visitor.stream.isOpen()) {
    await sleep(5);
  }
  const frame = reply();
  return { post, reply: frame ? frame.receivedAt - before : null };
}

export async function postAsVisitors(command: WidgetPostCommand): Promise<WidgetDeliveredAnswer> {
  const latencies: number[] = [];
  const postLatencies: number[] = [];
  const errors: string[] = [];
  let posted = 0;
  for (let round = 0; round < command.rounds; round++) {
    const outcomes = await Promise.allSettled(
      visitors.map((visitor, i) =>
        timeOne(
          command.target,
          visitor,
          command.message,
          command.settleTimeoutMs,
          (i * command.spreadMs) / visitors.length,
        ),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        if (errors.length < MAX_ERRORS) {
          errors.push(String((outcome.reason as Error)?.message ?? outcome.reason));
        }
        continue;
      }
      posted++;
      postLatencies.push(outcome.value.post);
      if (outcome.value.reply !== null) {
        latencies.push(outcome.value.reply);
      } else if (errors.length < MAX_ERRORS) {
        errors.push(`no reply frame within ${command.settleTimeoutMs} ms`);
      }
    }
  }
  return {
    type: 'widget-delivered',
    visitors: visitors.length,
    posted,
    replied: latencies.length,
    latency: summarize(latencies),
    post_latency: summarize(postLatencies),
    errors,
  };
}

/** Closes every visitor's stream; answers how many the server had ended before. */
export function closeVisitors(): number {
  const dropped = visitors.filter((visitor) => !visitor.stream.isOpen()).length;
  visitors.forEach((visitor) => visitor.stream.close());
  visitors.length = 0;
  agent.destroy();
  return dropped;
}
