import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { MetricsService } from '@/common/metrics/metrics.service';
import { CLUSTER_EVENTS, ClusterEvents, StreamGrant } from '@/common/state/ports';
import { AGENT_DELETED } from '@/modules/agents/agents.service';
import { ApiKeysService, KEY_REVOKED } from '@/modules/auth/api-keys.service';
import { EventStreamWriter } from './event-stream-writer';

/**
 * How often the keys of open streams are checked: a key that expires, or is revoked where no
 * instance hears of it (the CLI of a single instance, a notice lost with Redis), ends its streams
 * within this.
 */
const KEY_CHECK_MS = 2_000;

interface OpenStream {
  grant: StreamGrant;
  writer: EventStreamWriter;
}

/**
 * The streams open on this instance, each ended once it loses its authority: at once when its key
 * is revoked or its agent (with its conversations) deleted, on any instance; within KEY_CHECK_MS
 * when its key expires. All of them end at shutdown, and any opened after it began ends at once.
 */
@Injectable()
export class OpenStreams implements OnModuleDestroy {
  private readonly logger = new Logger(OpenStreams.name);
  private readonly streams = new Set<OpenStream>();
  private readonly keyCheck = setInterval(() => void this.endWithoutWorkingKey(), KEY_CHECK_MS);
  private shuttingDown = false;

  constructor(
    private readonly apiKeys: ApiKeysService,
    @Inject(CLUSTER_EVENTS) events: ClusterEvents,
    metrics: MetricsService,
  ) {
    this.keyCheck.unref();
    metrics.gauge(
      'console_open_streams',
      'Message streams open on this instance',
      () => this.streams.size,
    );
    events.on(KEY_REVOKED, (keyId) => this.endWhere((grant) => grant.keyId === keyId));
    events.on(AGENT_DELETED, (agentId) => this.endWhere((grant) => grant.agentId === agentId));
  }

  track(grant: StreamGrant, writer: EventStreamWriter): void {
    if (this.shuttingDown) {
      writer.end();
      return;
    }
    const stream = { grant, writer };
    this.streams.add(stream);
    writer.onClose(() => this.streams.delete(stream));
  }

  /** Ends every open stream, so that the HTTP server can close (graceful shutdown). */
  onModuleDestroy(): void {
    this.shuttingDown = true;
    clearInterval(this.keyCheck);
    this.endWhere(() => true);
  }

  private endWhere(lostAuthority: (grant: StreamGrant) => boolean): void {
    for (const stream of this.streams) {
      if (lostAuthority(stream.grant)) {
        stream.writer.end();
      }
    }
  }

  private async endWithoutWorkingKey(): Promise<void> {
    if (this.streams.size === 0) {
      return;
    }
    const checked = new Set(
      [...this.streams].flatMap(({ grant }) => (grant.keyId === null ? [] : [grant.keyId])),
    );
    if (checked.size === 0) {
      return;
    }
    try {
      const working = await this.apiKeys.activeAmong([...checked]);
      this.endWhere(({ keyId }) => keyId !== null && checked.has(keyId) && !working.has(keyId));
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not check the keys of open streams');
    }
  }
}
