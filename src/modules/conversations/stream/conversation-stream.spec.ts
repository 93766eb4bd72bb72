import { MemoryMessageBus } from '@/common/state/memory-message-bus';
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
    attachments: [],
    createdAt: new Date(0),
  };
}

/** The conversation's stored messages, counting the reads. */
class FakeMessages {
  readonly rows: MessageEntity[] = [];
  reads = 0;

  store(count: number): MessageEntity[] {
    const added = Array.from({ length: count }, (_, i) => stored(this.rows.length + i + 1));
    this.rows.push(...added);
    return added;
  }

  async afterSeq(_conversationId: string, seq: number, limit: number): Promise<MessageEntity[]> {
    this.reads++;
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

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function start(messages: FakeMessages, client: SlowClient, bus: MemoryMessageBus): void {
  new ConversationStream(
    { messages: messages as unknown as MessagesRepository, bus, heartbeatMs: 60_000 },
    CONVERSATION,
    { seq: 0, position: new Date(0).toISOString() },
    client,
  ).start();
}

describe('ConversationStream', () => {
  let messages: FakeMessages;
  let bus: MemoryMessageBus;
  let clients: SlowClient[];

  beforeEach(() => {
    messages = new FakeMessages();
    bus = new MemoryMessageBus();
    clients = [];
  });
  afterEach(() => clients.forEach((client) => client.end()));

  it('reads the next batch only once the client has taken the previous one', async () => {
    messages.store(120);
    const client = new SlowClient(10);
    clients.push(client);
    start(messages, client, bus);
    await settle();
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
    const client = new SlowClient(5);
    clients.push(client);
    start(messages, client, bus);
    await settle();
    for (const row of messages.store(5)) {
      bus.publish(CONVERSATION, toBusMessage(row));
    }
    for (let i = 0; i < 40 && client.messageIds().length < 65; i++) {
      await client.read();
    }
    expect(client.messageIds()).toEqual(messages.rows.map((row) => row.id));
  });

  it('writes a live message at once when caught up, and rereads for one that skips ahead', async () => {
    messages.store(3);
    const client = new SlowClient(1_000);
    clients.push(client);
    start(messages, client, bus);
    await settle();
    const readsWhenCaughtUp = messages.reads;

    const [next] = messages.store(1);
    bus.publish(CONVERSATION, toBusMessage(next));
    expect(messages.reads).toBe(readsWhenCaughtUp);

    const [announcedLate, skipping] = messages.store(2);
    bus.publish(CONVERSATION, toBusMessage(skipping));
    await settle();
    bus.publish(CONVERSATION, toBusMessage(announcedLate));
    expect(messages.reads).toBeGreaterThan(readsWhenCaughtUp);
    expect(client.messageIds()).toEqual(messages.rows.map((row) => row.id));
  });
});
