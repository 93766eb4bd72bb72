/** What the queue needs to know of a job: who it is, whose it is, and what it must follow. */
export interface QueuedJob {
  id: string;
  teamId: string;
  /** Jobs of one lane run one at a time, in the order they were added (e.g. one conversation). */
  lane?: string;
}

export interface FairQueueLimits {
  /** Jobs running at once in this process. */
  concurrency: number;
  /** Jobs of one team running at once in this process. */
  perTeam: number;
}

/**
 * Runs jobs in this process, fairly between teams: the next free slot goes to the next team in
 * turn that has a job waiting and room under its own limit, so a team with a thousand slow jobs
 * holds at most `perTeam` slots and every other team's jobs still start at once.
 */
export class FairQueue<J extends QueuedJob> {
  private readonly waiting = new Map<string, J[]>();
  /** When each team with jobs waiting or running was last given a slot (a count of slots given). */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private readonly runningPerTeam = new Map<string, number>();
  private readonly busyLanes = new Set<string>();
  private readonly known = new Set<string>();
  /** Jobs queued or running per lane. */
  private readonly lanes = new Map<string, number>();
  private running = 0;

  constructor(
    private readonly limits: FairQueueLimits,
    private readonly run: (job: J) => Promise<void>,
    /** Told after each job finishes and the next has started. */
    private readonly finished: () => void = () => undefined,
  ) {}

  /** Queues `job` unless it is queued or running already; whether it was queued. */
  add(job: J): boolean {
    if (this.known.has(job.id)) {
      return false;
    }
    this.known.add(job.id);
    if (job.lane !== undefined) {
      this.lanes.set(job.lane, (this.lanes.get(job.lane) ?? 0) + 1);
    }
    const queue = this.waiting.get(job.teamId);
    if (queue) {
      queue.push(job);
    } else {
      this.waiting.set(job.teamId, [job]);
    }
    this.pump();
    return true;
  }

  has(id: string): boolean {
    return this.known.has(id);
  }

  /** Whether a job of `lane` is queued or running. */
  hasLane(lane: string): boolean {
    return this.lanes.has(lane);
  }

  /** Jobs queued or running. */
  get size(): number {
    return this.known.size;
  }

  /** Jobs queued and not yet running. */
  get notStarted(): number {
    return this.known.size - this.running;
  }

  /** Slots that a sweep may fill without making jobs wait behind each other. */
  get room(): number {
    return Math.max(0, this.limits.concurrency * 2 - this.known.size);
  }

  private pump(): void {
    while (this.running < this.limits.concurrency) {
      const job = this.next();
      if (!job) {
        return;
      }
      this.start(job);
    }
  }

  /**
   * The first runnable job of the team, among those with room, served longest ago (a team new to
   * the queue first).
   */
  private next(): J | undefined {
    let chosen: { teamId: string; index: number; servedAt: number } | undefined;
    for (const [teamId, queue] of this.waiting) {
      const servedAt = this.lastServed.get(teamId) ?? -1;
      if (
        (chosen && servedAt >= chosen.servedAt) ||
        (this.runningPerTeam.get(teamId) ?? 0) >= this.limits.perTeam
      ) {
        continue;
      }
      const index = queue.findIndex(
        (job) => job.lane === undefined || !this.busyLanes.has(job.lane),
      );
      if (index >= 0) {
        chosen = { teamId, index, servedAt };
      }
    }
    if (!chosen) {
      return undefined;
    }
    const queue = this.waiting.get(chosen.teamId)!;
    const [job] = queue.splice(chosen.index, 1);
    if (queue.length === 0) {
      this.waiting.delete(chosen.teamId);
    }
    this.lastServed.set(chosen.teamId, this.served++);
    return job;
  }

  private start(job: J): void {
    this.running++;
    this.runningPerTeam.set(job.teamId, (this.runningPerTeam.get(job.teamId) ?? 0) + 1);
    if (job.lane !== undefined) {
      this.busyLanes.add(job.lane);
    }
    void this.run(job)
      .catch(() => undefined)
      .finally(() => {
        this.running--;
        const left = this.runningPerTeam.get(job.teamId)! - 1;
        if (left > 0) {
          this.runningPerTeam.set(job.teamId, left);
        } else {
          this.runningPerTeam.delete(job.teamId);
          if (!this.waiting.has(job.teamId)) {
            this.lastServed.delete(job.teamId);
          }
        }
        if (job.lane !== undefined) {
          this.busyLanes.delete(job.lane);
          const inLane = this.lanes.get(job.lane)! - 1;
          if (inLane > 0) {
            this.lanes.set(job.lane, inLane);
          } else {
            this.lanes.delete(job.lane);
          }
        }
        this.known.delete(job.id);
        this.pump();
        this.finished();
      });
  }
}
