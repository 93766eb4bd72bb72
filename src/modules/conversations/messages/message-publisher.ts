import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { BusMessage, MESSAGE_BUS, MessageBus } from '@/common/state/ports';
import { toStreamMessageEvent } from '../dto/message.dto';
import { MessageEntity } from '../entities/message.entity';

export function toBusMessage(message: MessageEntity): BusMessage {
  return { seq: message.seq, event: toStreamMessageEvent(message) };
}

/** Announces stored messages to the streams watching their conversation, once committed. */
@Injectable()
export class MessagePublisher {
  constructor(
    private readonly db: Database,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
  ) {}

  publish(message: MessageEntity): void {
    this.db.afterCommit(() => this.bus.publish(message.conversationId, toBusMessage(message)));
  }

  /**
   * A piece of the reply to `replyTo` the model is writing, for the streams watching now: nothing
   * is stored, so nothing waits for a commit.
   */
  publishDelta(conversationId: string, replyTo: string, index: number, delta: string): void {
    this.bus.publish(conversationId, {
      delta: { conversation_id: conversationId, reply_to: replyTo, index, delta },
    });
  }
}
