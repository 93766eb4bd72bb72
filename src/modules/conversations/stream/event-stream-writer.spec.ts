import { Writable } from 'node:stream';
import type { Response } from 'express';
import { EventStreamWriter } from './event-stream-writer';

/** A response whose client takes chunks only when the test says so. */
class FakeResponse extends Writable {
  readonly req = { socket: { setNoDelay() {}, setKeepAlive() {}, setTimeout() {} } };
  readonly taken: string[] = [];
  status?: number;
  private waiting: Array<() => void> = [];

  constructor(highWaterMark: number) {
    super({
      highWaterMark,
      write: (chunk: Buffer, _encoding, callback) => {
        this.taken.push(chunk.toString());
        this.waiting.push(callback);
      },
    });
  }

  writeHead(status: number): this {
    this.status = status;
    return this;
  }

  /** The client takes everything sent so far. */
  async read(): Promise<void> {
    while (this.waiting.length > 0) {
      this.waiting.splice(0).forEach((callback) => callback());
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

const frame = (id: string) => ({ id, event: 'message' as const, data: `{"id":"${id}"}` });
const FRAME_BYTES = Buffer.byteLength('event: message\nid: m-1\ndata: {"id":"m-1"}\n\n');

function writer(highWaterMark: number, maxBacklogBytes: number) {
  const res = new FakeResponse(highWaterMark);
  return { res, sse: new EventStreamWriter(res as unknown as Response, maxBacklogBytes) };
}

describe('EventStreamWriter', () => {
  it('answers 200 at once and writes each frame as an event, id and data block', async () => {
    const { res, sse } = writer(1_000, 10_000);
    sse.write(frame('m-1'));
    await res.read();

    expect(res.status).toBe(200);
    expect(res.taken).toEqual(['event: message\nid: m-1\ndata: {"id":"m-1"}\n\n']);
  });

  it('says when the client has not taken what it was sent, and drained() waits until it has', async () => {
    const { res, sse } = writer(FRAME_BYTES, 10_000);
    expect(sse.write(frame('m-1'))).toBe(false);
    let drained = false;
    void sse.drained().then(() => (drained = true));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);

    await res.read();
    expect(drained).toBe(true);
  });

  it('cuts off a client that lets more than the backlog cap wait for it', async () => {
    const { res, sse } = writer(FRAME_BYTES, 3 * FRAME_BYTES);
    for (let i = 1; i <= 3; i++) {
      sse.write(frame(`m-${i}`));
    }
    expect(res.destroyed).toBe(false);

    expect(sse.write(frame('m-4'))).toBe(false);
    expect(res.destroyed).toBe(true);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(sse.isOpen).toBe(false);
  });

  it('cuts off a client that does not take the last chunk within a second of the end', () => {
    jest.useFakeTimers();
    try {
      const { res, sse } = writer(FRAME_BYTES, 10_000);
      sse.write(frame('m-1'));
      sse.end();
      expect({ open: sse.isOpen, destroyed: res.destroyed }).toEqual({
        open: false,
        destroyed: false,
      });

      jest.advanceTimersByTime(1_000);
      expect(res.destroyed).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('calls onClose at once for a stream whose client has already gone', async () => {
    const { res, sse } = writer(1_000, 10_000);
    res.destroy();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const closed = jest.fn();
    sse.onClose(closed);

    expect(closed).toHaveBeenCalledTimes(1);
  });
});
