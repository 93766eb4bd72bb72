import { Logger } from '@nestjs/common';

/** How long a running run is held without a renewal: its caller renews it every third of it. */
export const RUN_LEASE_MS = 15_000;

export function leaseFrom(now = Date.now()): Date {
  return new Date(now + RUN_LEASE_MS);
}

/**
 * Runs `work` (an action's call, holding no transaction) while renewing the run's lease, so
 * that the lease runs out soon after the process dies and never while it lives.
 */
export async function whileLeased<T>(
  renew: () => Promise<unknown>,
  work: () => Promise<T>,
  logger: Logger,
): Promise<T> {
  const renewal = setInterval(
    () =>
      void renew().catch((error: unknown) =>
        logger.warn({ err: error }, 'Could not renew an action run lease'),
      ),
    RUN_LEASE_MS / 3,
  );
  renewal.unref();
  try {
    return await work();
  } finally {
    clearInterval(renewal);
  }
}
