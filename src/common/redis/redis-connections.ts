import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { RateLimitedWarning } from '@/database/rate-limited-warning';
import { StartupError } from '@/config/startup-error';

const CONNECT_TIMEOUT_MS = 3_000;
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * The two Redis connections of an instance: one for commands and one held in subscriber mode.
 * Commands fail at once while Redis is away (no offline queue), so a request that needs Redis gets
 * a clear 503 rather than hanging; both connections keep reconnecting, and subscriptions come back
 * by themselves.
 */
export class RedisConnections {
  private constructor(
    readonly commands: Redis,
    readonly subscriber: Redis,
    private readonly prefix: string,
  ) {}

  static async connect(url: string, prefix: string): Promise<RedisConnections> {
    const options: RedisOptions = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    };
    // Loaded only with REDIS_URL: a single instance never needs it (start-up time).
    const { default: Client } = await import('ioredis');
    const commands = new Client(url, options);
    const subscriber = new Client(url, options);
    // Until connected, a failure stops the start (below); without a listener ioredis would print
    // each retry.
    commands.on('error', () => undefined);
    subscriber.on('error', () => undefined);
    try {
      await Promise.all([commands.connect(), subscriber.connect()]);
      watch(commands, 'commands');
      watch(subscriber, 'subscriber');
    } catch (error) {
      commands.disconnect();
      subscriber.disconnect();
      throw new StartupError(
        `Cannot reach Redis at REDIS_URL (${redact(url)}): ${(error as Error).message}. ` +
          'Start Redis or unset REDIS_URL for a single instance.',
      );
    }
    return new RedisConnections(commands, subscriber, prefix);
  }

  key(...parts: string[]): string {
    return `${this.prefix}${parts.join(':')}`;
  }

  async ping(timeoutMs: number): Promise<void> {
    await Promise.race([
      this.commands.ping(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('Redis ping timed out')), timeoutMs).unref(),
      ),
    ]);
  }

  close(): void {
    this.commands.disconnect();
    this.subscriber.disconnect();
  }
}

/** Trouble of a connection that was up: logged while it lasts (rate-limited), and when it ends. */
function watch(connection: Redis, role: string): void {
  const trouble = new RateLimitedWarning(new Logger('Redis'));
  connection.on('error', (error: NodeJS.ErrnoException) =>
    trouble.warn(`Redis connection trouble (${role}); requests that need Redis answer 503`, {
      reason: error.code ?? error.message,
    }),
  );
  connection.on('ready', () => trouble.recovered(`Redis reachable again (${role})`));
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = '***';
    }
    return parsed.toString();
  } catch {
    return 'unparseable URL';
  }
}
