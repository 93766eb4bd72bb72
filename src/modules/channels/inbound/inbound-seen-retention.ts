import { Injectable } from '@nestjs/common';
import { RetentionSweeper } from '@/database/jobs/retention';
import { TestNumberRepository } from '../test-number/test-number.repository';
import { ChannelInboundRepository } from './channel-inbound.repository';

/**
 * Meta retries an unacknowledged notification for a day or so (its pages say 24 to 36 hours, some
 * up to 7 days): a week covers every figure it gives.
 */
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
