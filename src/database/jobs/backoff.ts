/** Retries are never spaced more than this apart, however many came before. */
const MAX_DELAY_S = 3600;

/**
 * When the next attempt after `attempts` failed ones may run: exponential (`firstRetryS`, doubled
 * each time, capped at an hour) with "equal jitter" (between half and all of that delay), so that
 * receivers coming back after an outage are not hit by every sender at the same second. Null when
 * that moment falls after `retryUntil`: the delivery has failed for good.
 */
export function nextAttemptAt(
  attempts: number,
  now: Date,
  retryUntil: Date,
  firstRetryS: number,
  random: () => number = Math.random,
): Date | null {
  const ceiling = Math.min(MAX_DELAY_S, firstRetryS * 2 ** Math.min(attempts - 1, 30));
  const delayMs = Math.round(ceiling * 1000 * (0.5 + random() / 2));
  const next = new Date(now.getTime() + delayMs);
  return next > retryUntil ? null : next;
}
