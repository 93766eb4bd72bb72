/**
 * Lets the producers of a queue's jobs take turns with the jobs themselves. While fewer than
 * `waitingMax` jobs wait to run, producers go in at once; past it, each job that finishes lets one
 * producer in, first come first served, so new work enters no faster than finished work leaves
 * and the queue's lag stays bounded. A producer not let in within its own time limit goes in
 * anyway: the wait paces producers, it refuses nobody.
 */
export class Admission {
  private readonly waiters: Array<() => void> = [];

  constructor(
    /** Jobs queued and not yet running. */
    private readonly waiting: () => number,
    private readonly waitingMax: number,
  ) {}

  /** Producers waiting their turn. */
  get queued(): number {
    return this.waiters.length;
  }

  /** Resolves when the caller may add its job: true when let in, false when its time ran out. */
  enter(timeoutMs: number): Promise<boolean> {
    if (this.waiters.length === 0 && this.waiting() < this.waitingMax) {
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const letIn = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(letIn), 1);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(letIn);
    });
  }

  /** A job finished: the next producer goes in if the queue is back under its bound. */
  jobFinished(): void {
    if (this.waiters.length > 0 && this.waiting() < this.waitingMax) {
      this.waiters.shift()!();
    }
  }
}
