import { Logger } from '@nestjs/common';
import { Observable } from 'rxjs';
import { RedisConnections } from '../redis/redis-connections';
import { BusItem, MessageBus, RESYNC } from './ports';
import { SubjectRegistry } from './subject-registry';

/**
 * Redis pub/sub, one channel per conversation. An instance subscribes to a conversation's channel
 * when its first local stream watches it and unsubscribes after the last leaves; a message is
 * published to Redis only, and comes back through the subscription to local watchers too, so every
 * instance sees one order. After the subscriber connection comes back from an outage, watchers are
 * told to re-read what they may have missed.
 */
export class RedisMessageBus implements MessageBus {
  private readonly logger = new Logger(RedisMessageBus.name);
  private readonly prefix: string;
  private readonly conversations = new SubjectRegistry<BusItem | typeof RESYNC>({
    onFirstSubscriber: (conversationId) => this.subscribe(conversationId),
    onLastUnsubscribe: (conversationId) => this.unsubscribe(conversationId),
  });
  private wasDisconnected = false;

  constructor(private readonly redis: RedisConnections) {
    this.prefix = redis.key('conversation', '');
    redis.subscriber.on('message', (channel: string, payload: string) =>
      this.deliver(channel, payload),
    );
    redis.subscriber.on('close', () => (this.wasDisconnected = true));
    redis.subscriber.on('ready', () => {
      if (this.wasDisconnected) {
        this.wasDisconnected = false;
        this.conversations.nextAll(RESYNC);
      }
    });
  }

  publish(conversationId: string, message: BusItem): void {
    this.redis.commands
      .publish(this.prefix + conversationId, JSON.stringify(message))
      .catch((error: unknown) => {
        // Streams re-read from the database when Redis comes back, so the message is not lost to them.
        this.logger.warn(
          { err: error, conversation_id: conversationId },
          'Could not publish a message',
        );
      });
  }

  watch(conversationId: string): Observable<BusItem | typeof RESYNC> {
    return this.conversations.observe(conversationId);
  }

  watchedConversations(): number {
    return this.conversations.size;
  }

  private subscribe(conversationId: string): void {
    this.redis.subscriber.subscribe(this.prefix + conversationId).catch((error: unknown) => {
      // ioredis subscribes again on reconnect; the resync then covers the gap.
      this.wasDisconnected = true;
      this.logger.warn({ err: error, conversation_id: conversationId }, 'Could not subscribe yet');
    });
  }

  private unsubscribe(conversationId: string): void {
    this.redis.subscriber.unsubscribe(this.prefix + conversationId).catch(() => undefined);
  }

  private deliver(channelName: string, payload: string): void {
    if (!channelName.startsWith(this.prefix)) {
      return;
    }
    const conversationId = channelName.slice(this.prefix.length);
    // Parsed once for all the watchers, who then share one event object (see ConversationStream).
    if (this.conversations.has(conversationId)) {
      this.conversations.next(conversationId, JSON.parse(payload) as BusItem);
    }
  }
}
