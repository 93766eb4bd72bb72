import { Logger } from '@nestjs/common';
import { RedisConnections } from '../redis/redis-connections';
import { ClusterEvents } from './ports';

/** Notices on Redis pub/sub, one channel per topic. */
export class RedisClusterEvents implements ClusterEvents {
  private readonly logger = new Logger(RedisClusterEvents.name);
  private readonly handlers = new Map<string, Array<(payload: string) => void>>();

  constructor(private readonly redis: RedisConnections) {
    redis.subscriber.on('message', (channel: string, payload: string) => {
      this.handlers.get(channel)?.forEach((handler) => handler(payload));
    });
  }

  async emit(topic: string, payload: string): Promise<void> {
    await this.redis.commands.publish(this.redis.key('events', topic), payload);
  }

  on(topic: string, handler: (payload: string) => void): void {
    const channel = this.redis.key('events', topic);
    const handlers = this.handlers.get(channel);
    if (handlers) {
      handlers.push(handler);
      return;
    }
    this.handlers.set(channel, [handler]);
    this.redis.subscriber.subscribe(channel).catch((error: unknown) => {
      this.logger.warn(
        { err: error, topic },
        'Could not subscribe yet; ioredis retries on reconnect',
      );
    });
  }
}
