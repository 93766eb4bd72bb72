export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Calls `probe` until `done` holds or `timeoutMs` passes; returns the last value and when it came. */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  intervalMs = 100,
): Promise<{ value: T; elapsedMs: number }> {
  const started = Date.now();
  let value = await probe();
  while (!done(value) && Date.now() - started < timeoutMs) {
    await sleep(intervalMs);
    value = await probe();
  }
  return { value, elapsedMs: Date.now() - started };
}
