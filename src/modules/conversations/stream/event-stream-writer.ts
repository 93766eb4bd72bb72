import type { Response } from 'express';

export interface StreamFrame {
  id: string;
  event: 'message' | 'message.delta' | 'heartbeat';
  /** JSON, which holds no line break: it fits one `data:` line. */
  data: string;
}

/** Where a stream's frames go, at the pace of the client that takes them. */
export interface FrameSink {
  readonly isOpen: boolean;
  /** Frames wait for the client: what is only a preview is better left out. */
  readonly isBackedUp: boolean;
  write(frame: StreamFrame): boolean;
  /** Resolves once the client has taken what waited for it, or the stream is over. */
  drained(): Promise<void>;
  onClose(callback: () => void): void;
  /** Ends the stream with its last chunk. */
  end(): void;
}

const HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** How long an ended stream may take to hand its last bytes to the client before it is cut. */
const END_GRACE_MS = 1_000;

/**
 * Server-Sent Events written straight to the response. Nest's `@Sse` queues whatever it is given
 * for as long as the client does not read; here `write` says whether the client has taken what it
 * was sent, and `drained` waits until it has, so the producer goes at the client's pace. A client
 * that lets more than `maxBacklogBytes` wait for it is cut off: it resumes with Last-Event-ID.
 */
export class EventStreamWriter implements FrameSink {
  private closed: boolean;

  constructor(
    private readonly res: Response,
    private readonly maxBacklogBytes: number,
  ) {
    const socket = res.req.socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    socket.setTimeout(0);
    this.closed = res.destroyed;
    res.once('close', () => (this.closed = true));
    res.writeHead(200, HEADERS);
  }

  get isOpen(): boolean {
    return !this.closed && !this.res.writableEnded;
  }

  get isBackedUp(): boolean {
    return this.res.writableNeedDrain;
  }

  write(frame: StreamFrame): boolean {
    if (!this.isOpen) {
      return false;
    }
    if (this.res.write(`event: ${frame.event}\nid: ${frame.id}\ndata: ${frame.data}\n\n`)) {
      return true;
    }
    if (this.res.writableLength > this.maxBacklogBytes) {
      this.res.destroy();
    }
    return false;
  }

  drained(): Promise<void> {
    if (!this.isOpen || !this.res.writableNeedDrain) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  onClose(callback: () => void): void {
    if (this.closed) {
      callback();
      return;
    }
    this.res.once('close', callback);
  }

  /** A client that does not take the last chunk soon is cut off. */
  end(): void {
    if (!this.isOpen) {
      return;
    }
    this.res.end();
    const cut = setTimeout(() => this.res.destroy(), END_GRACE_MS);
    this.res.once('close', () => clearTimeout(cut));
  }
}
