import {
  ApiTarget,
  ClosedAnswer,
  DeliveredAnswer,
  OpenedAnswer,
  SseAnswer,
  SseCommand,
} from './sse-protocol';
import { Worker } from './worker';

const SLACK_MS = 60_000;
/** Generous per-stream allowance (the app has been seen opening ~170 streams/s). */
const OPEN_MS_PER_STREAM = 30;
const POST_MS_PER_MESSAGE = 2_000;

/** The suite's handle on the SSE client process (bench/sse-worker.ts). */
export class SseClient {
  private constructor(private readonly worker: Worker<SseCommand, SseAnswer>) {}

  static start(name: string): SseClient {
    return new SseClient(
      Worker.start<SseCommand, SseAnswer>(`sse client (${name})`, 'sse-worker.ts'),
    );
  }

  async open(
    target: ApiTarget,
    conversationIds: string[],
    count: number,
    batchSize: number,
  ): Promise<OpenedAnswer> {
    this.worker.send({ type: 'open', target, conversationIds, count, batchSize });
    return this.worker.receive('opened', SLACK_MS + count * OPEN_MS_PER_STREAM);
  }

  async post(
    target: ApiTarget,
    conversationId: string,
    messages: number,
    intervalMs: number,
    settleTimeoutMs: number,
  ): Promise<DeliveredAnswer> {
    this.worker.send({
      type: 'post',
      target,
      conversationId,
      messages,
      intervalMs,
      settleTimeoutMs,
    });
    const timeoutMs = SLACK_MS + settleTimeoutMs + messages * (intervalMs + POST_MS_PER_MESSAGE);
    return this.worker.receive('delivered', timeoutMs);
  }

  async close(): Promise<ClosedAnswer> {
    this.worker.send({ type: 'close' });
    return this.worker.receive('closed', SLACK_MS);
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }
}
