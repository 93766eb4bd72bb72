import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { AppConfig } from '@/config/app-config';
import { MessageEntity } from './entities/message.entity';

/** How soon a refused sender may try again: a few replies' time. */
const RETRY_AFTER_S = 5;

/** The longest a new customer message waits for the replies to catch up before it goes in. */
const TURN_WAIT_MS = 2_000;

/** Told, in the transaction that stores it, of a message the AI is to answer. */
export type ReplyRequestListener = (message: MessageEntity) => Promise<void>;

/** The replies this instance has yet to produce (the reply worker's queue). */
export interface ReplyBacklog {
  /** Replies queued or in the works. */
  size(): number;
  /** Resolves when a new reply may be queued without outrunning those being produced. */
  turn(timeoutMs: number): Promise<unknown>;
}

/**
 * Where the conversations announce a message that asks for a reply (a customer's, on a
 * conversation whose AI is on, or an action's outcome a reply waits for). The replies sit above
 * the conversations (they write into them), so they listen here rather than being called.
 */
@Injectable()
export class ReplyRequests {
  private readonly listeners: ReplyRequestListener[] = [];
  private readonly backlogMax: number;
  private backlog: ReplyBacklog = { size: () => 0, turn: () => Promise.resolve() };

  constructor(config: AppConfig) {
    this.backlogMax = config.llm.backlogMax;
  }

  listen(listener: ReplyRequestListener): void {
    this.listeners.push(listener);
  }

  measureBacklogWith(backlog: ReplyBacklog): void {
    this.backlog = backlog;
  }

  /**
   * Back-pressure (docs/api.md §5): with more replies waiting here than REPLY_BACKLOG_MAX, a new
   * customer message is refused before anything is stored, rather than answered ever later.
   */
  assertRoom(): void {
    if (this.backlog.size() >= this.backlogMax) {
      throw Errors.overloaded(
        'Too many replies are waiting to be written; send the message again shortly',
        RETRY_AFTER_S,
      );
    }
  }

  /**
   * Fair share (docs/api.md §5): while replies wait for a free slot, a new customer message waits
   * for one of them to be written first (at most TURN_WAIT_MS), so that posts cannot outrun the
   * replies on a saturated instance. Never inside a transaction: the wait must hold no lock.
   */
  async waitForTurn(): Promise<void> {
    await this.backlog.turn(TURN_WAIT_MS);
  }

  /** In the caller's transaction: a listener's writes commit or roll back with the message. */
  async requested(message: MessageEntity): Promise<void> {
    for (const listener of this.listeners) {
      await listener(message);
    }
  }
}
