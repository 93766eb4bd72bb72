import { RedisConnections } from '../redis/redis-connections';
import { requireRedis } from '../redis/redis-unavailable';
import { StreamGrant, TicketStore } from './ports';

/** Tickets in Redis, expiring by themselves; taken with GETDEL, so one opener wins. */
export class RedisTicketStore implements TicketStore {
  constructor(private readonly redis: RedisConnections) {}

  async save(ticketHash: string, grant: StreamGrant, ttlSeconds: number): Promise<void> {
    await requireRedis(() =>
      this.redis.commands.set(
        this.redis.key('ticket', ticketHash),
        JSON.stringify(grant),
        'EX',
        ttlSeconds,
      ),
    );
  }

  async take(ticketHash: string): Promise<StreamGrant | null> {
    const stored = await requireRedis(() =>
      this.redis.commands.getdel(this.redis.key('ticket', ticketHash)),
    );
    return stored ? (JSON.parse(stored) as StreamGrant) : null;
  }
}
