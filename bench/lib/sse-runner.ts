import {
  ApiTarget,
  ClosedAnswer,
  DeliveredAnswer,
  OpenedAnswer,
  SseAnswer,
  SseCommand,
  WidgetDeliveredAnswer,
  WidgetOpenedAnswer,
  WidgetTarget,
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

  /** Web-chat visitors, each with its conversation and its widget stream open. */
  async openVisitors(
    target: WidgetTarget,
    visitors: number,
    message: string,
    batchSize: number,
  ): Promise<WidgetOpenedAnswer> {
    this.worker.send({ type: 'widget-open', target, visitors, message, batchSize });
    return this.worker.receive('widget-opened', SLACK_MS + visitors * OPEN_MS_PER_STREAM * 4);
  }

  /**
   * `rounds` times, every visitor sends `message`, spread over `spreadMs` (0: all at once); times
   * each reply on its visitor's stream.
   */
  async postAsVisitors(
    target: WidgetTarget,
    rounds: number,
    spreadMs: number,
    message: string,
    settleTimeoutMs: number,
  ): Promise<WidgetDeliveredAnswer> {
    this.worker.send({ type: 'widget-post', target, rounds, spreadMs, message, settleTimeoutMs });
    return this.worker.receive(
      'widget-delivered',
      SLACK_MS + rounds * (spreadMs + settleTimeoutMs + POST_MS_PER_MESSAGE),
    );
  }

  async close(): Promise<ClosedAnswer> {
    this.worker.send({ type: 'close' });
    return this.worker.receive('closed', SLACK_MS);
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }
}
