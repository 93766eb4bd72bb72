import { Logger } from '@nestjs/common';
import { Observable, Subject } from 'rxjs';
import { RedisConnections } from '../redis/redis-connections';
import { BusMessage, MessageBus, RESYNC } from './ports';

interface Channel {
  subject: Subject<BusMessage | typeof RESYNC>;
  watchers: number;
}

/**
 * Redis pub/sub, one channel per conversation. An instance subscribes to a conversation's channel
 * when its first local stream watches it and unsubscribes after the last leaves; a message is
 * published to Redis only, and comes back through the subscription to local watchers too, so every
 * instance sees one order. After the subscriber connection comes back from an outage, watchers are
 * told to re-read what they may have missed.
 */
export class RedisMessageBus implements MessageBus {
  private readonly logger = new Logger(RedisMessageBus.name);
  private readonly channels = new Map<string, Channel>();
  private readonly prefix: string;
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
        this.channels.forEach((channel) => channel.subject.next(RESYNC));
      }
    });
  }

  publish(conversationId: string, message: BusMessage): void {
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

  watch(conversationId: string): Observable<BusMessage | typeof RESYNC> {
    return new Observable<BusMessage | typeof RESYNC>((subscriber) => {
      let channel = this.channels.get(conversationId);
      if (!channel) {
        channel = { subject: new Subject(), watchers: 0 };
        this.channels.set(conversationId, channel);
        this.redis.subscriber.subscribe(this.prefix + conversationId).catch((error: unknown) => {
          // ioredis subscribes again on reconnect; the resync then covers the gap.
          this.wasDisconnected = true;
          this.logger.warn(
            { err: error, conversation_id: conversationId },
            'Could not subscribe yet',
          );
        });
      }
      channel.watchers++;
      const subscription = channel.subject.subscribe(subscriber);
      const joined = channel;
      return () => {
        subscription.unsubscribe();
        joined.watchers--;
        if (joined.watchers === 0 && this.channels.get(conversationId) === joined) {
          this.channels.delete(conversationId);
          this.redis.subscriber.unsubscribe(this.prefix + conversationId).catch(() => undefined);
        }
      };
    });
  }

  watchedConversations(): number {
    return this.channels.size;
  }

  private deliver(channelName: string, payload: string): void {
    if (!channelName.startsWith(this.prefix)) {
      return;
    }
    const channel = this.channels.get(channelName.slice(this.prefix.length));
    if (channel) {
      channel.subject.next(JSON.parse(payload) as BusMessage);
    }
  }
}
