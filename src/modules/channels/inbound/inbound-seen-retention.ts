import { Injectable } from '@nestjs/common';
import { RetentionSweeper } from '@/database/jobs/retention';
import { TestNumberRepository } from '../test-number/test-number.repository';
import { ChannelInboundRepository } from './channel-inbound.repository';

/** Meta sends a notification again for up to 7 days while it goes unacknowledged. */
const PROVIDER_REDELIVERY_MS = 7 * 86_400_000;

/**
 * The provider message ids the channels and the test number have taken in are what answers a
 * redelivered notification once: kept for RETENTION_DAYS, and never for less than a provider
 * may still redeliver, then forgotten (they would otherwise grow with every message for ever).
 */
@Injectable()
export class InboundSeenRetention {
  constructor(
    retention: RetentionSweeper,
    inbound: ChannelInboundRepository,
    testNumber: TestNumberRepository,
  ) {
    retention.register('channel message ids taken in', (cutoff, limit) =>
      inbound.purgeSeen(keptThrough(cutoff), limit),
    );
    retention.register('test number message ids taken in', (cutoff, limit) =>
      testNumber.purgeSeen(keptThrough(cutoff), limit),
    );
  }
}

/** The retention cutoff, moved back if a provider could still redeliver what it would forget. */
function keptThrough(cutoff: Date): Date {
  return new Date(Math.min(cutoff.getTime(), Date.now() - PROVIDER_REDELIVERY_MS));
}
