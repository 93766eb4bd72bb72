import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { REDIS } from '../redis/redis.module';
import { RedisConnections } from '../redis/redis-connections';
import { MemoryClusterEvents } from './memory-cluster-events';
import { MemoryMessageBus } from './memory-message-bus';
import { MemoryStreamSlots } from './memory-stream-slots';
import { MemoryTicketStore } from './memory-ticket-store';
import {
  CLUSTER_EVENTS,
  ClusterEvents,
  MESSAGE_BUS,
  MessageBus,
  STREAM_SLOTS,
  StreamSlots,
  TICKET_STORE,
  TicketStore,
} from './ports';
import { RedisClusterEvents } from './redis-cluster-events';
import { RedisMessageBus } from './redis-message-bus';
import { RedisStreamSlots } from './redis-stream-slots';
import { RedisTicketStore } from './redis-ticket-store';
import { Tickets } from './tickets';

function adapter<T>(
  token: symbol,
  inMemory: () => T,
  inRedis: (redis: RedisConnections, config: AppConfig) => T,
) {
  return {
    provide: token,
    inject: [REDIS, AppConfig],
    useFactory: (redis: RedisConnections | null, config: AppConfig): T =>
      redis ? inRedis(redis, config) : inMemory(),
  };
}

/**
 * State that instances must agree on, behind ports: in process memory for a single instance
 * (embedded mode), in Redis when REDIS_URL is set (cluster mode). Chosen once, at start.
 */
@Global()
@Module({
  providers: [
    adapter<TicketStore>(
      TICKET_STORE,
      () => new MemoryTicketStore(),
      (redis) => new RedisTicketStore(redis),
    ),
    adapter<StreamSlots>(
      STREAM_SLOTS,
      () => new MemoryStreamSlots(),
      (redis, config) => new RedisStreamSlots(redis, config.stream.slotLeaseMs),
    ),
    adapter<MessageBus>(
      MESSAGE_BUS,
      () => new MemoryMessageBus(),
      (redis) => new RedisMessageBus(redis),
    ),
    adapter<ClusterEvents>(
      CLUSTER_EVENTS,
      () => new MemoryClusterEvents(),
      (redis) => new RedisClusterEvents(redis),
    ),
    Tickets,
  ],
  exports: [TICKET_STORE, STREAM_SLOTS, MESSAGE_BUS, CLUSTER_EVENTS, Tickets],
})
export class StateModule {}
