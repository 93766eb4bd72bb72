import { Injectable } from '@nestjs/common';
import { MessageEntity } from './entities/message.entity';

/** Told, in the transaction that stores it, of a message the AI is to answer. */
export type ReplyRequestListener = (message: MessageEntity) => Promise<void>;

/**
 * Where the conversations announce a message that asks for a reply (a customer's, on a
 * conversation whose AI is on, or an action's outcome a reply waits for). The replies sit above
 * the conversations (they write into them), so they listen here rather than being called.
 */
@Injectable()
export class ReplyRequests {
  private readonly listeners: ReplyRequestListener[] = [];

  listen(listener: ReplyRequestListener): void {
    this.listeners.push(listener);
  }

  /** In the caller's transaction: a listener's writes commit or roll back with the message. */
  async requested(message: MessageEntity): Promise<void> {
    for (const listener of this.listeners) {
      await listener(message);
    }
  }
}
