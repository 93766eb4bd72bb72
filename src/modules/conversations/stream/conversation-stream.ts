import { Logger, MessageEvent } from '@nestjs/common';
import { Observable } from 'rxjs';
import { BusMessage, MessageBus, RESYNC } from '@/common/state/ports';
import { toBusMessage } from '../messages/message-publisher';
import { MessagesRepository } from '../messages/messages.repository';

const REPLAY_BATCH = 500;
const logger = new Logger('ConversationStream');

export interface StreamStart {
  /** The sequence number of the last message the client has; replay starts after it. */
  seq: number;
  /** The resume point heartbeats carry until a message is sent: a message id or an ISO time. */
  position: string;
}

export interface StreamDependencies {
  messages: MessagesRepository;
  bus: MessageBus;
  heartbeatMs: number;
}

/**
 * Every watcher of a conversation is handed the same event object: it is serialised once, not
 * once per subscriber (a thousand browsers on one conversation would mean a thousand stringifies).
 */
const serialised = new WeakMap<BusMessage['event'], string>();

function messageFrame(message: BusMessage): MessageEvent {
  let data = serialised.get(message.event);
  if (data === undefined) {
    data = JSON.stringify(message.event);
    serialised.set(message.event, data);
  }
  return { id: message.event.id, type: 'message', data };
}

/**
 * One client's view of a conversation: every message after `start`, in order, each exactly once,
 * then live ones, with a heartbeat carrying the resume point.
 *
 * It watches the bus before it reads the replay, so nothing published meanwhile is missed, and
 * runs everything through one queue, so frames leave in order. Sequence numbers follow commit
 * order within a conversation: a message already sent is dropped, and a live message that skips
 * ahead (its predecessor announced late) first has the gap read from the database.
 */
export function conversationStream(
  deps: StreamDependencies,
  conversationId: string,
  start: StreamStart,
  onClose: () => void,
): Observable<MessageEvent> {
  return new Observable<MessageEvent>((subscriber) => {
    let lastSeq = start.seq;
    let position = start.position;
    let queue: Promise<void> = Promise.resolve();
    let closed = false;

    const send = (message: BusMessage) => {
      if (message.seq <= lastSeq || closed) {
        return;
      }
      lastSeq = message.seq;
      position = message.event.id;
      subscriber.next(messageFrame(message));
    };
    const catchUp = async (upTo?: number) => {
      for (;;) {
        const batch = await deps.messages.afterSeq(conversationId, lastSeq, REPLAY_BATCH, upTo);
        batch.map(toBusMessage).forEach(send);
        if (batch.length < REPLAY_BATCH || closed) {
          return;
        }
      }
    };
    // A failure mid-stream ends the stream rather than erroring it: Nest would send an error frame
    // numbered `id: 1`, which a browser would keep as its resume point. Ended, the client simply
    // reconnects from the last id it got.
    const enqueue = (step: () => Promise<void> | void) => {
      queue = queue.then(step).catch((error: unknown) => {
        logger.error({ err: error, conversation_id: conversationId }, 'Stream failed; ending it');
        subscriber.complete();
      });
    };
    const heartbeat = () =>
      subscriber.next({ id: position, type: 'heartbeat', data: { ts: Date.now() } });

    const live = deps.bus.watch(conversationId).subscribe((message) =>
      enqueue(async () => {
        if (message === RESYNC) {
          await catchUp();
          return;
        }
        if (message.seq > lastSeq + 1) {
          await catchUp(message.seq - 1);
        }
        send(message);
      }),
    );
    heartbeat();
    enqueue(() => catchUp());
    const timer = setInterval(() => enqueue(heartbeat), deps.heartbeatMs);

    return () => {
      closed = true;
      clearInterval(timer);
      live.unsubscribe();
      onClose();
    };
  });
}
