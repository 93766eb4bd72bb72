import { Logger } from '@nestjs/common';
import { Subject } from 'rxjs';
import { BusItem, MessageBus, RESYNC } from '@/common/state/ports';
import { toBusMessage } from '../messages/message-publisher';
import { MessagesRepository } from '../messages/messages.repository';
import { MessageEntity } from '../entities/message.entity';
import { ConversationStream } from './conversation-stream';
import { FrameSink, StreamFrame } from './event-stream-writer';

const CONVERSATION = 'c0000000-0000-7000-8000-000000000000';

function stored(seq: number): MessageEntity {
  return {
    id: `m-${seq}`,
    teamId: 't',
    agentId: 'a',
    conversationId: CONVERSATION,
    seq,
    role: 'assistant',
    message: `message ${seq}`,
    messageType: 'text',
    action: null,
    attachments: [],
    authorType: 'ai',
    authorId: null,
    authorName: null,
    deliveryStatus: null,
    deliveryError: null,
    deliveryUpdatedAt: null,
    createdAt: new Date(0),
  };
}

/** The conversation's stored messages, counting the reads. */
class FakeMessages {
  readonly rows: MessageEntity[] = [];
  reads = 0;
  failing = false;

  store(count: number): MessageEntity[] {
    const added = Array.from({ length: count }, (_, i) => stored(this.rows.length + i + 1));
    this.rows.push(...added);
    return added;
  }

  async afterSeq(
    _teamId: string,
    _conversationId: string,
    seq: number,
    limit: number,
  ): Promise<MessageEntity[]> {
    this.reads++;
    if (this.failing) {
      throw new Error('database unavailable');
    }
    return this.rows.filter((row) => row.seq > seq).slice(0, limit);
  }
}

/** A client that takes frames only when the test says so; it holds `window` unread ones. */
class SlowClient implements FrameSink {
  readonly frames: StreamFrame[] = [];
  isOpen = true;
  private unread = 0;
  private waiting: Array<() => void> = [];
  private readonly closers: Array<() => void> = [];

  constructor(private readonly window: number) {}

  get isBackedUp(): boolean {
    return this.unread >= this.window;
  }

  write(frame: StreamFrame): boolean {
    this.frames.push(frame);
    this.unread++;
    return this.unread < this.window;
  }

  drained(): Promise<void> {
    return this.unread < this.window
      ? Promise.resolve()
      : new Promise((resolve) => this.waiting.push(resolve));
  }

  onClose(callback: () => void): void {
    this.closers.push(callback);
  }

  end(): void {
    this.isOpen = false;
    this.closers.splice(0).forEach((close) => close());
  }

  /** Takes everything sent so far. */
  async read(): Promise<void> {
    this.unread = 0;
    this.waiting.splice(0).forEach((resolve) => resolve());
    await settle();
  }

  messageIds(): string[] {
    return this.frames.filter((f) => f.event === 'message').map((f) => f.id);
  }
}

/** The bus as one conversation's stream sees it. */
class FakeBus {
  readonly live = new Subject<BusItem | typeof RESYNC>();

  watch() {
    return this.live.asObservable();
  }

  announce(...rows: MessageEntity[]): void {
    rows.forEach((row) => this.live.next(toBusMessage(row)));
  }
}

const HEARTBEAT_MS = 60_000;
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ConversationStream', () => {
  let messages: FakeMessages;
  let bus: FakeBus;
  let clients: SlowClient[];

  beforeEach(() => {
    messages = new FakeMessages();
    bus = new FakeBus();
    clients = [];
  });
  afterEach(() => clients.forEach((client) => client.end()));

  /** A client holding `window` unread frames, once its stream from the start has settled. */
  async function connect(window: number): Promise<SlowClient> {
    const client = new SlowClient(window);
    clients.push(client);
    new ConversationStream(
      {
        messages: messages as unknown as MessagesRepository,
        bus: bus as unknown as MessageBus,
        heartbeatMs: HEARTBEAT_MS,
      },
      { teamId: 't', id: CONVERSATION },
      { seq: 0, position: new Date(0).toISOString() },
      client,
    ).start();
    await settle();
    return client;
  }

  it('reads the next batch only once the client has taken the previous one', async () => {
    messages.store(120);
    const client = await connect(10);
    expect({ reads: messages.reads, sent: client.messageIds().length }).toEqual({
      reads: 1,
      sent: 9,
    });

    for (let i = 0; i < 30 && client.messageIds().length < 120; i++) {
      await client.read();
    }
    expect(client.messageIds()).toEqual(messages.rows.map((row) => row.id));
    expect(messages.reads).toBe(3);
  });

  it('sends every message once and in order when some are written during the replay', async () => {
    messages.store(60);
    const client = await connect(5);
    bus.announce(...messages.store(5));
    for (let i = 0; i < 40 && client.messageIds().length < 65; i++) {
      await client.read();
    }
    expect(client.messageIds()).toEqual(messages.rows.map((row) => row.id));
  });

  it('writes a live message at once when caught up, without reading the database', async () => {
    messages.store(3);
    const client = await connect(1_000);
    const readsWhenCaughtUp = messages.reads;

    bus.announce(...messages.store(1));
    expect(messages.reads).toBe(readsWhenCaughtUp);
    expect(client.messageIds()).toEqual(['m-1', 'm-2', 'm-3', 'm-4']);
  });

  const delta = (index: number, text: string) => ({
    delta: { conversation_id: CONVERSATION, reply_to: 'm-3', index, delta: text },
  });

  it('writes reply pieces live with the resume point as their id, which they never move', async () => {
    messages.store(3);
    const client = await connect(1_000);
    bus.live.next(delta(0, 'Sizes '));
    bus.live.next(delta(1, '36 to 46.'));
    bus.announce(...messages.store(1));
    const frames = client.frames.filter((frame) => frame.event !== 'heartbeat');
    expect(frames.map((frame) => [frame.event, frame.id])).toEqual([
      ['message', 'm-1'],
      ['message', 'm-2'],
      ['message', 'm-3'],
      ['message.delta', 'm-3'],
      ['message.delta', 'm-3'],
      ['message', 'm-4'],
    ]);
    expect(JSON.parse(frames[4].data)).toEqual(delta(1, '36 to 46.').delta);
  });

  it('leaves reply pieces out while it replays or the client is behind', async () => {
    messages.store(30);
    const client = await connect(5);
    bus.live.next(delta(0, 'lost while replaying'));
    for (let i = 0; i < 20 && client.messageIds().length < 30; i++) {
      await client.read();
    }
    bus.live.next(delta(1, 'shown'));
    expect(client.frames.filter((frame) => frame.event === 'message.delta')).toHaveLength(1);
  });

  it('reads the gap from the database for a live message that skips ahead', async () => {
    messages.store(3);
    const client = await connect(1_000);
    const readsWhenCaughtUp = messages.reads;

    const [announcedLate, skipping] = messages.store(2);
    bus.announce(skipping);
    await settle();
    bus.announce(announcedLate);
    expect(messages.reads).toBe(readsWhenCaughtUp + 1);
    expect(client.messageIds()).toEqual(['m-1', 'm-2', 'm-3', 'm-4', 'm-5']);
  });

  it('rereads the database when the bus says messages may have been missed', async () => {
    const client = await connect(1_000);

    messages.store(2);
    bus.live.next(RESYNC);
    await settle();
    expect(client.messageIds()).toEqual(['m-1', 'm-2']);
  });

  it('heartbeats carry the start position, then the id of the last message sent', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      messages.store(2);
      const client = await connect(1_000);
      jest.advanceTimersByTime(HEARTBEAT_MS);

      const heartbeats = client.frames.filter((frame) => frame.event === 'heartbeat');
      expect(heartbeats.map((frame) => frame.id)).toEqual([new Date(0).toISOString(), 'm-2']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('ends the stream when the database cannot be read, so that the client resumes', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation();
    messages.failing = true;
    const client = await connect(1_000);

    expect(client.isOpen).toBe(false);
    expect(bus.live.observed).toBe(false);
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });

  it('stops reading and watching once the client has gone', async () => {
    messages.store(120);
    const client = await connect(10);
    client.end();
    await client.read();

    expect(messages.reads).toBe(1);
    expect(bus.live.observed).toBe(false);
  });
});
