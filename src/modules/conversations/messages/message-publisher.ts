import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { MESSAGE_BUS, MessageBus } from '@/common/state/ports';
import { MessageEntity } from '../entities/message.entity';

/** Announces stored messages to the streams watching their conversation, once committed. */
@Injectable()
export class MessagePublisher {
  constructor(
    private readonly db: Database,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
  ) {}

  publish(message: MessageEntity): void {
    this.db.afterCommit(() =>
      this.bus.publish(message.conversationId, {
        seq: message.seq,
        event: {
          id: message.id,
          conversation_id: message.conversationId,
          role: message.role,
          message: message.message,
          message_type: message.messageType,
          created_at: message.createdAt.toISOString(),
        },
      }),
    );
  }
}
