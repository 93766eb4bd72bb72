import { ApiError } from './api';
import { isWidgetDelta, isWidgetMessage, WidgetDelta, WidgetMessage } from './types';

export type StreamAction =
  | { kind: 'message'; message: WidgetMessage }
  | { kind: 'delta'; delta: WidgetDelta }
  | { kind: 'heartbeat' };

/** The events the widget listens to; any other event name is ignored. */
export const STREAM_EVENTS = ['message', 'message.delta', 'heartbeat'] as const;

/** What one SSE frame means to the widget; null for frames it does not understand. */
export function parseStreamEvent(type: string, data: string): StreamAction | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return type === 'heartbeat' ? { kind: 'heartbeat' } : null;
  }
  switch (type) {
    case 'message':
      return isWidgetMessage(parsed) ? { kind: 'message', message: parsed } : null;
    case 'message.delta':
      return isWidgetDelta(parsed) ? { kind: 'delta', delta: parsed } : null;
    case 'heartbeat':
      return { kind: 'heartbeat' };
    default:
      return null;
  }
}

export const MAX_BACKOFF_MS = 30_000;

/** Wait before the `attempt`-th reconnection (0-based): exponential, jittered, capped. */
export function backoffDelay(attempt: number, random = Math.random()): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.5 + random / 2));
}

/** The part of EventSource the client uses, so that tests can hand it a fake. */
export interface EventSourceLike {
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export interface StreamDeps {
  /** A fresh single-use ticket (POST /stream-ticket). */
  ticket(): Promise<string>;
  url(ticket: string, after: string | null): string;
  open(url: string): EventSourceLike;
  /** Where a reconnection resumes: the newest message id the widget holds. */
  lastId(): string | null;
  onAction(action: StreamAction): void;
  /** The stream is open; `resumed` after a reconnection (the caller refetches what it missed). */
  onOpen(resumed: boolean): void;
  /** A failure worth telling the visitor, or null once the stream is back. */
  onTrouble(error: unknown): void;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  random?: () => number;
  /**
   * A stream silent this long (no frame, heartbeats included) is taken for dead and reopened: a
   * half-open connection raises no error by itself. Off when unset.
   */
  silenceMs?: number;
}

/** Failures after which asking again cannot help: the key or the page's origin is refused. */
const FINAL_STATUSES = new Set([401, 403]);

/**
 * The widget's live connection: a ticket, an EventSource on it, and on any error a new ticket
 * (tickets are single use, so EventSource's own retry cannot succeed) after a backoff, resuming
 * with `after` the last message held. A server that refuses `after` twice in a row before ever
 * opening is asked without it; the caller refetches missed messages on every reopening anyway.
 */
export class StreamClient {
  private source: EventSourceLike | null = null;
  private timer: unknown = null;
  private watchdog: unknown = null;
  private attempt = 0;
  private opened = false;
  private failuresWithAfter = 0;
  private useAfter = true;
  private stopped = true;

  constructor(private readonly deps: StreamDeps) {}

  start(): void {
    if (!this.stopped) {
      return;
    }
    this.stopped = false;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.source?.close();
    this.source = null;
    this.quiet();
    if (this.timer !== null) {
      this.deps.clearTimer(this.timer);
      this.timer = null;
    }
  }

  get running(): boolean {
    return !this.stopped;
  }

  private async connect(): Promise<void> {
    this.timer = null;
    let ticket: string;
    try {
      ticket = await this.deps.ticket();
    } catch (error) {
      this.deps.onTrouble(error);
      if (error instanceof ApiError && FINAL_STATUSES.has(error.status)) {
        this.stopped = true;
        return;
      }
      this.retry(error instanceof ApiError ? error.retryAfterMs : null);
      return;
    }
    if (this.stopped) {
      return;
    }
    const after = this.useAfter ? this.deps.lastId() : null;
    const source = this.deps.open(this.deps.url(ticket, after));
    this.source = source;
    let open = false;
    source.onopen = () => {
      open = true;
      this.listen(source);
      this.attempt = 0;
      this.failuresWithAfter = 0;
      const resumed = this.opened;
      this.opened = true;
      this.deps.onTrouble(null);
      this.deps.onOpen(resumed);
    };
    source.onerror = () => {
      if (this.source !== source) {
        return;
      }
      source.close();
      this.source = null;
      this.quiet();
      if (!open && after !== null) {
        this.failuresWithAfter += 1;
        if (this.failuresWithAfter >= 2) {
          this.useAfter = false;
        }
      }
      this.retry(null);
    };
    for (const type of STREAM_EVENTS) {
      source.addEventListener(type, (event) => {
        const action = parseStreamEvent(type, event.data);
        if (this.source !== source) {
          return;
        }
        this.listen(source);
        if (action) {
          this.deps.onAction(action);
        }
      });
    }
  }

  /** (Re)arms the silence watchdog: any frame proves the stream alive. */
  private listen(source: EventSourceLike): void {
    const silenceMs = this.deps.silenceMs;
    if (silenceMs === undefined) {
      return;
    }
    this.quiet();
    this.watchdog = this.deps.setTimer(() => {
      this.watchdog = null;
      if (this.source === source) {
        source.onerror?.(new Event('error'));
      }
    }, silenceMs);
  }

  private quiet(): void {
    if (this.watchdog !== null) {
      this.deps.clearTimer(this.watchdog);
      this.watchdog = null;
    }
  }

  private retry(retryAfterMs: number | null): void {
    if (this.stopped) {
      return;
    }
    const delay = Math.max(retryAfterMs ?? 0, backoffDelay(this.attempt, this.deps.random?.()));
    this.attempt += 1;
    this.timer = this.deps.setTimer(() => void this.connect(), delay);
  }
}
