import { Logger } from '@nestjs/common';

/**
 * A warning for trouble that repeats (a dependency down, retried every 100 ms): logged at once,
 * then at most once per `everyMs`, with how many times it happened in between.
 */
export class RateLimitedWarning {
  private lastAt: number | undefined;
  private suppressed = 0;

  constructor(
    private readonly logger: Logger,
    private readonly everyMs = 30_000,
  ) {}

  warn(message: string, details: Record<string, unknown> = {}): void {
    const now = Date.now();
    if (this.lastAt !== undefined && now - this.lastAt < this.everyMs) {
      this.suppressed++;
      return;
    }
    const repeated = this.suppressed;
    this.lastAt = now;
    this.suppressed = 0;
    this.logger.warn({ ...details, ...(repeated ? { repeated } : {}) }, message);
  }

  /** The trouble is over: said once, and the next trouble is logged at once. */
  recovered(message: string): void {
    if (this.lastAt === undefined) {
      return;
    }
    this.lastAt = undefined;
    this.suppressed = 0;
    this.logger.log(message);
  }
}
