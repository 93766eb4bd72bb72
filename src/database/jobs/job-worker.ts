import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Database } from '../database.service';
import { Admission } from './admission';
import { FairQueue, QueuedJob } from './fair-queue';
import { Claim } from './job-table';

export interface JobWorkerOptions {
  /** Jobs running at once in this process, and of one team. */
  concurrency: number;
  perTeam: number;
  /** How long a claim holds without renewal; renewed every third of it while the job runs. */
  leaseMs: number;
  /** How often every instance looks for due jobs nobody holds. */
  sweepIntervalMs: number;
  /** A job handed over by its own process is left to it this long before a sweep takes it. */
  sweepGraceMs: number;
  /** Past this many jobs waiting to run, producers are paced (`admission`); unbounded if unset. */
  waitingMax?: number;
}

/**
 * The one way background work runs. Jobs are rows (see `JobTable`); a process hears of a new job
 * when the transaction that wrote it commits (`schedule`), and every instance sweeps for due
 * jobs nobody holds (on start and every `sweepIntervalMs`), so a job whose worker died is taken
 * again once its lease runs out. A job runs only after its claim succeeds, renews its lease while
 * it runs, and settles through the claim's token. Jobs wait in a `FairQueue`: teams take turns.
 */
export abstract class JobWorker<J extends QueuedJob, T>
  implements OnApplicationBootstrap, OnModuleDestroy
{
  protected abstract readonly logger: Logger;
  private readonly jobs: FairQueue<J>;
  /** Where producers of new jobs wait their turn while the queue is behind. */
  readonly admission: Admission;
  private sweeper?: NodeJS.Timeout;
  private sweeping = false;
  protected stopped = false;

  protected constructor(
    protected readonly db: Database,
    protected readonly options: JobWorkerOptions,
  ) {
    this.jobs = new FairQueue(
      options,
      (job) => this.runJob(job),
      () => this.admission.jobFinished(),
    );
    this.admission = new Admission(() => this.jobs.notStarted, options.waitingMax ?? Infinity);
  }

  /** Due jobs nobody holds, fair between teams (`JobTable.due`), due by `dueBy`. */
  protected abstract findDue(limit: number, perTeam: number, dueBy: Date): Promise<J[]>;

  /** Claims the job (`JobTable.claim`); null when it is not due or someone else holds it. */
  protected abstract claim(job: J): Promise<Claim<T> | null>;

  /** Extends the claim's lease; false once the claim is lost. */
  protected abstract renew(job: J, claim: Claim<T>): Promise<boolean>;

  /** Does the job and settles it through `claim.token`. */
  protected abstract perform(job: J, claim: Claim<T>): Promise<void>;

  /** Frees every lease when no other process can hold one (embedded mode, at start). */
  protected abstract releaseAll(): Promise<void>;

  async onApplicationBootstrap(): Promise<void> {
    if (this.db.dialect.embedded) {
      await this.releaseAll();
    }
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepIntervalMs);
    this.sweeper.unref();
    void this.sweep(new Date());
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
  }

  /** Runs the job soon (called once the transaction that made it due has committed). */
  schedule(job: J): void {
    if (!this.stopped) {
      this.jobs.add(job);
    }
  }

  /** Whether a job of `lane` is queued or running in this process. */
  protected hasLane(lane: string): boolean {
    return this.jobs.hasLane(lane);
  }

  /** Jobs queued or running in this process. */
  get inFlight(): number {
    return this.jobs.size;
  }

  protected async sweep(dueBy = new Date(Date.now() - this.options.sweepGraceMs)): Promise<void> {
    if (this.sweeping || this.stopped) {
      return;
    }
    this.sweeping = true;
    try {
      const room = this.jobs.room;
      if (room > 0) {
        for (const job of await this.findDue(room, this.options.perTeam * 2, dueBy)) {
          if (!this.jobs.has(job.id) && (job.lane === undefined || !this.hasLane(job.lane))) {
            this.schedule(job);
          }
        }
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not look for due jobs');
    } finally {
      this.sweeping = false;
    }
  }

  private async runJob(job: J): Promise<void> {
    try {
      const claim = this.stopped ? null : await this.claim(job);
      if (!claim) {
        return;
      }
      const renewal = setInterval(
        () =>
          void this.renew(job, claim).catch((error: unknown) =>
            this.logger.warn({ err: error, job_id: job.id }, 'Could not renew a lease'),
          ),
        this.options.leaseMs / 3,
      );
      renewal.unref();
      try {
        await this.perform(job, claim);
      } finally {
        clearInterval(renewal);
      }
    } catch (error) {
      this.failed(job, error);
    }
  }

  /** A job that threw keeps its lease until it runs out: then a sweep takes it again. */
  protected failed(job: J, error: unknown): void {
    this.logger.error(
      { err: error, job_id: job.id },
      'A background job failed; it will be retried',
    );
  }
}
