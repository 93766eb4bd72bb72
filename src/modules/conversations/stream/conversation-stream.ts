import { Logger } from '@nestjs/common';
import { BusDelta, BusItem, BusMessage, MessageBus, RESYNC } from '@/common/state/ports';
import { ConversationEntity } from '../entities/conversation.entity';
import { toBusMessage } from '../messages/message-publisher';
import { MessagesRepository } from '../messages/messages.repository';
import { FrameSink, StreamFrame } from './event-stream-writer';

/** Messages read from the database at a time: all that a client that does not read can hold. */
const REPLAY_BATCH = 50;
const logger = new Logger('ConversationStream');

export interface StreamStart {
  /** The sequence number of the last message the client has; replay starts after it. */
  seq: number;
  /** The resume point heartbeats carry until a message is sent: a message id or an ISO time. */
  position: string;
}

export type StreamedConversation = Pick<ConversationEntity, 'teamId' | 'id'>;

export interface StreamDependencies {
  messages: MessagesRepository;
  bus: MessageBus;
  heartbeatMs: number;
}

/**
 * What a stream shows of a message: the staff see it whole; another view (the customer's) may
 * reshape it, or skip it (null).
 */
export type StreamView = (event: BusMessage['event']) => Record<string, unknown> | null;

const staffView: StreamView = (event) => event;

/**
 * Every watcher of a conversation is handed the same event object: it is serialised once per
 * view, not once per subscriber (a thousand browsers on one conversation would mean a thousand
 * stringifies). Null: the view skips it.
 */
const serialised = new WeakMap<StreamView, WeakMap<BusMessage['event'], string | null>>();

function messageFrame(message: BusMessage, view: StreamView): StreamFrame | null {
  let ofView = serialised.get(view);
  if (!ofView) {
    ofView = new WeakMap();
    serialised.set(view, ofView);
  }
  let data = ofView.get(message.event);
  if (data === undefined) {
    const shown = view(message.event);
    data = shown === null ? null : JSON.stringify(shown);
    ofView.set(message.event, data);
  }
  return data === null ? null : { id: message.event.id, event: 'message', data };
}

/**
 * One client's view of a conversation: every message after `start`, in order, each exactly once,
 * then live ones, with a heartbeat carrying the resume point.
 *
 * It watches the bus before it reads the database, so nothing published meanwhile is missed. The
 * database is read (the replay, and any catch-up) in batches at the client's pace: a batch only
 * once the client has taken the previous one. Live messages that come meanwhile are not kept:
 * they are stored already, so the reading simply goes on until it has them. Once caught up, a live
 * message that follows the last one sent is written at once, and one that skips ahead (its
 * predecessor announced late, or lost while Redis was away) sends the stream back to the
 * database. Sequence numbers follow commit order within a conversation, so a message already
 * sent is dropped.
 */
export class ConversationStream {
  private lastSeq: number;
  private position: string;
  private reading = false;
  private missedWhileReading = false;

  constructor(
    private readonly deps: StreamDependencies,
    private readonly conversation: StreamedConversation,
    start: StreamStart,
    private readonly writer: FrameSink,
    private readonly view: StreamView = staffView,
  ) {
    this.lastSeq = start.seq;
    this.position = start.position;
  }

  start(): void {
    const live = this.deps.bus
      .watch(this.conversation.id)
      .subscribe((message) => this.onLive(message));
    const heartbeats = setInterval(() => this.heartbeat(), this.deps.heartbeatMs);
    this.writer.onClose(() => {
      clearInterval(heartbeats);
      live.unsubscribe();
    });
    this.heartbeat();
    void this.readDatabase();
  }

  private onLive(message: BusItem | typeof RESYNC): void {
    if (message !== RESYNC && 'delta' in message) {
      this.sendDelta(message);
      return;
    }
    if (message !== RESYNC && message.seq <= this.lastSeq) {
      return;
    }
    if (this.reading || message === RESYNC || message.seq > this.lastSeq + 1) {
      void this.readDatabase();
      return;
    }
    this.send(message);
  }

  /** Reads until caught up, including what was announced while it read; one reader at a time. */
  private async readDatabase(): Promise<void> {
    if (this.reading) {
      this.missedWhileReading = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.missedWhileReading = false;
        await this.readBatches();
      } while (this.missedWhileReading && this.writer.isOpen);
    } catch (error) {
      // Ended rather than left hanging: the client reconnects from the last id it got.
      logger.error(
        { err: error, conversation_id: this.conversation.id },
        'Stream failed; ending it',
      );
      this.writer.end();
    } finally {
      this.reading = false;
    }
  }

  private async readBatches(): Promise<void> {
    while (this.writer.isOpen) {
      const batch = await this.deps.messages.afterSeq(
        this.conversation.teamId,
        this.conversation.id,
        this.lastSeq,
        REPLAY_BATCH,
      );
      for (const message of batch) {
        if (!this.send(toBusMessage(message))) {
          await this.writer.drained();
        }
        if (!this.writer.isOpen) {
          return;
        }
      }
      if (batch.length < REPLAY_BATCH) {
        return;
      }
    }
  }

  /**
   * False when the frame waits for the client. A message the view skips moves the stream past it
   * without changing the resume point heartbeats carry (the last message the client was sent).
   */
  private send(message: BusMessage): boolean {
    this.lastSeq = message.seq;
    const frame = messageFrame(message, this.view);
    if (!frame) {
      return true;
    }
    this.position = message.event.id;
    return this.writer.write(frame);
  }

  /**
   * A piece of a reply being written, carrying the resume point as heartbeats do (a piece has no
   * id of its own). Only to a client that is caught up and keeping up: pieces are a preview, the
   * reply itself follows as a message, so one skipped costs nothing.
   */
  private sendDelta({ delta }: BusDelta): void {
    if (this.reading || !this.writer.isOpen || this.writer.isBackedUp) {
      return;
    }
    this.writer.write({ id: this.position, event: 'message.delta', data: JSON.stringify(delta) });
  }

  private heartbeat(): void {
    this.writer.write({
      id: this.position,
      event: 'heartbeat',
      data: JSON.stringify({ ts: Date.now() }),
    });
  }
}
