/** Kept apart from tracing.ts so that stopping never loads the OpenTelemetry SDK. */
let flush: (() => Promise<void>) | undefined;

export function onTracingShutdown(stop: () => Promise<void>): void {
  flush = stop;
}

/** Sends the spans still buffered; a collector that does not answer cannot hold up the exit. */
export async function stopTracing(timeoutMs = 2_000): Promise<void> {
  const stopping = flush?.().catch(() => undefined);
  flush = undefined;
  if (stopping) {
    await Promise.race([
      stopping,
      new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  }
}
