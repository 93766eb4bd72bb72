import { ApiError } from './api';
import {
  backoffDelay,
  EventSourceLike,
  MAX_BACKOFF_MS,
  parseStreamEvent,
  StreamAction,
  StreamClient,
} from './stream';

const MESSAGE = {
  id: 'm1',
  conversation_id: 'c1',
  role: 'assistant',
  message: 'Hi',
  message_type: 'text',
  created_at: '2026-11-26T10:00:00.000Z',
  author: { type: 'ai', name: null },
};

describe('parseStreamEvent', () => {
  it('reads a message frame', () => {
    expect(parseStreamEvent('message', JSON.stringify(MESSAGE))).toEqual({
      kind: 'message',
      message: MESSAGE,
    });
  });

  it('reads a delta frame', () => {
    const delta = { conversation_id: 'c1', reply_to: 'm0', index: 2, delta: 'lo' };
    expect(parseStreamEvent('message.delta', JSON.stringify(delta))).toEqual({
      kind: 'delta',
      delta,
    });
  });

  it('takes heartbeats, with or without a body', () => {
    expect(parseStreamEvent('heartbeat', '{"ts":1}')).toEqual({ kind: 'heartbeat' });
    expect(parseStreamEvent('heartbeat', '')).toEqual({ kind: 'heartbeat' });
  });

  it('ignores unknown events, broken JSON and messages without their fields', () => {
    expect(parseStreamEvent('conversation.updated', '{}')).toBeNull();
    expect(parseStreamEvent('message', '{not json')).toBeNull();
    expect(parseStreamEvent('message', JSON.stringify({ id: 'm1' }))).toBeNull();
    expect(parseStreamEvent('message', JSON.stringify({ ...MESSAGE, role: 'system' }))).toBeNull();
    expect(parseStreamEvent('message.delta', JSON.stringify({ index: 0 }))).toBeNull();
  });
});

describe('backoffDelay', () => {
  it('doubles from one second, jittered between half and all of it, capped at 30 s', () => {
    expect(backoffDelay(0, 1)).toBe(1000);
    expect(backoffDelay(0, 0)).toBe(500);
    expect(backoffDelay(3, 1)).toBe(8000);
    expect(backoffDelay(20, 1)).toBe(MAX_BACKOFF_MS);
  });
});

class FakeSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  readonly listeners = new Map<string, (event: MessageEvent<string>) => void>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, listener);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data: string): void {
    this.listeners.get(type)?.({ data } as MessageEvent<string>);
  }
}

function harness(tickets: Array<string | Error>, silenceMs?: number) {
  const sources: FakeSource[] = [];
  const actions: StreamAction[] = [];
  const opens: boolean[] = [];
  const troubles: unknown[] = [];
  const timers: Array<{ callback: () => void; ms: number }> = [];
  let lastId: string | null = null;
  const client = new StreamClient({
    ticket: async () => {
      const next = tickets.shift();
      if (next === undefined) {
        throw new Error('no more tickets');
      }
      if (next instanceof Error) {
        throw next;
      }
      return next;
    },
    url: (ticket, after) => `/stream?ticket=${ticket}${after ? `&after=${after}` : ''}`,
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    lastId: () => lastId,
    onAction: (action) => actions.push(action),
    onOpen: (resumed) => opens.push(resumed),
    onTrouble: (error) => troubles.push(error),
    setTimer: (callback, ms) => {
      const timer = { callback, ms };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      const index = timers.indexOf(handle as (typeof timers)[number]);
      if (index >= 0) {
        timers.splice(index, 1);
      }
    },
    silenceMs,
    random: () => 1,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    client,
    sources,
    actions,
    opens,
    troubles,
    timers,
    settle,
    setLastId: (id: string | null) => (lastId = id),
    fireTimer: async () => {
      timers.shift()?.callback();
      await settle();
    },
  };
}

describe('StreamClient', () => {
  it('opens the stream with a ticket and hands on what it understands', async () => {
    const h = harness(['t1']);
    h.client.start();
    await h.settle();
    expect(h.sources.map((s) => s.url)).toEqual(['/stream?ticket=t1']);
    h.sources[0].onopen?.({} as Event);
    h.sources[0].emit('message', JSON.stringify(MESSAGE));
    h.sources[0].emit('heartbeat', '{"ts":1}');
    h.sources[0].emit('message', 'garbage');
    expect(h.opens).toEqual([false]);
    expect(h.actions.map((a) => a.kind)).toEqual(['message', 'heartbeat']);
  });

  it('on an error closes the stream and resumes after the last message with a new ticket', async () => {
    const h = harness(['t1', 't2']);
    h.client.start();
    await h.settle();
    h.sources[0].onopen?.({} as Event);
    h.setLastId('m9');
    h.sources[0].onerror?.({} as Event);
    expect(h.sources[0].closed).toBe(true);
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    await h.fireTimer();
    expect(h.sources[1].url).toBe('/stream?ticket=t2&after=m9');
    h.sources[1].onopen?.({} as Event);
    expect(h.opens).toEqual([false, true]);
  });

  it('backs off longer after each failure, and waits at least Retry-After', async () => {
    const h = harness([new ApiError(0, 'down'), new ApiError(429, 'slow', 12_000), 't3']);
    h.client.start();
    await h.settle();
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    await h.fireTimer();
    expect(h.timers.map((t) => t.ms)).toEqual([12_000]);
    expect(h.troubles).toHaveLength(2);
    await h.fireTimer();
    h.sources[0].onopen?.({} as Event);
    expect(h.troubles[h.troubles.length - 1]).toBeNull();
  });

  it('gives up when the key or the origin is refused', async () => {
    const h = harness([new ApiError(403, 'forbidden')]);
    h.client.start();
    await h.settle();
    expect(h.timers).toEqual([]);
    expect(h.client.running).toBe(false);
  });

  it('stops asking with after when the server refuses it twice before opening', async () => {
    const h = harness(['t1', 't2', 't3']);
    h.setLastId('m1');
    h.client.start();
    await h.settle();
    h.sources[0].onerror?.({} as Event);
    await h.fireTimer();
    h.sources[1].onerror?.({} as Event);
    await h.fireTimer();
    expect(h.sources.map((s) => s.url)).toEqual([
      '/stream?ticket=t1&after=m1',
      '/stream?ticket=t2&after=m1',
      '/stream?ticket=t3',
    ]);
  });

  it('reopens a stream that stays silent past the watchdog, and any frame rearms it', async () => {
    const h = harness(['t1', 't2'], 65_000);
    h.client.start();
    await h.settle();
    h.sources[0].onopen?.({} as Event);
    expect(h.timers.map((t) => t.ms)).toEqual([65_000]);
    h.sources[0].emit('heartbeat', '{"ts":1}');
    expect(h.timers.map((t) => t.ms)).toEqual([65_000]);
    await h.fireTimer();
    expect(h.sources[0].closed).toBe(true);
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    await h.fireTimer();
    expect(h.sources).toHaveLength(2);
  });

  it('ignores a closed stream once stopped', async () => {
    const h = harness(['t1']);
    h.client.start();
    await h.settle();
    h.client.stop();
    h.sources[0].emit('message', JSON.stringify(MESSAGE));
    h.sources[0].onerror?.({} as Event);
    expect(h.actions).toEqual([]);
    expect(h.timers).toEqual([]);
  });
});
