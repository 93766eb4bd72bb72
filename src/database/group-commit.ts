/** What a group needs of the database: a transaction, and savepoints inside it. */
export interface GroupedTransactions {
  transaction<T>(work: () => Promise<T>): Promise<T>;
  savepoint<T>(work: () => Promise<T>): Promise<T>;
}

/** Enough to amortise a commit; few enough that the writer's turn stays short for the others. */
const MAX_UNITS = 64;
/**
 * Groups that may follow one another in one turn of the event loop: enough for chains of steps
 * (a claim, then the outcome) to run their course; a bound in case a chain never ends.
 */
const MAX_GROUPS_PER_TURN = 32;

interface Unit {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { unit: Unit; value: unknown } | { unit: Unit; error: unknown };

/**
 * Group commit: units of work submitted close together share one transaction, and so one commit.
 * Each runs in a savepoint of its own, so one that fails undoes its own writes and after-commit
 * callbacks and leaves the others to commit. A unit hears of its outcome once the group's
 * transaction has ended: its value once committed (the after-commit callbacks of every unit have
 * run then, in the units' order), its own error, or the group's when the commit failed.
 *
 * The units submitted in one turn of the event loop make a group at its end (`setImmediate`). On
 * SQLite a request's statements never wait on I/O, so each request runs to its end at once, and
 * only a turn gathers the units of many. A group takes its units when its transaction begins, so
 * those submitted meanwhile join it. The units that its outcomes set going in turn (a job claimed
 * runs, and then stores what it did) make the next group as soon as they have all been submitted
 * (`process.nextTick`: once no promise is left to settle), in the same turn: a chain of steps
 * advances a step per group, not a step per turn.
 *
 * A unit runs in the group's transaction and must wait on nothing but the database: the group
 * holds the writer.
 */
export class GroupCommit {
  private waiting: Unit[] = [];
  /** Whether a group is about to begin, and will take the units waiting. */
  private queued = false;
  private running = false;
  private groupsThisTurn = 0;

  constructor(
    private readonly db: GroupedTransactions,
    private readonly maxUnits = MAX_UNITS,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.queued && !this.running) {
        this.queued = true;
        setImmediate(() => this.startTurn());
      }
    });
  }

  private startTurn(): void {
    this.groupsThisTurn = 0;
    void this.commitGroup();
  }

  private async commitGroup(): Promise<void> {
    this.running = true;
    this.groupsThisTurn++;
    let units: Unit[] | undefined;
    let outcomes: Outcome[] = [];
    try {
      await this.db.transaction(async () => {
        units ??= this.takeUnits();
        outcomes = [];
        for (const unit of units) {
          try {
            outcomes.push({ unit, value: await this.db.savepoint(unit.work) });
          } catch (error) {
            outcomes.push({ unit, error });
          }
        }
      });
    } catch (error) {
      outcomes = (units ?? this.takeUnits()).map((unit) => ({ unit, error }));
    }
    this.running = false;
    for (const outcome of outcomes) {
      if ('error' in outcome) {
        outcome.unit.reject(outcome.error);
      } else {
        outcome.unit.resolve(outcome.value);
      }
    }
    this.followUp();
  }

  /** The units waiting, as many as a group holds; the others wait for the next group. */
  private takeUnits(): Unit[] {
    this.queued = false;
    return this.waiting.splice(0, this.maxUnits);
  }

  /** The next group, once the outcomes just told have set going whatever they set going. */
  private followUp(): void {
    if (this.queued) {
      return;
    }
    this.queued = true;
    process.nextTick(() => {
      if (this.waiting.length === 0) {
        this.queued = false;
      } else if (this.groupsThisTurn < MAX_GROUPS_PER_TURN) {
        void this.commitGroup();
      } else {
        setImmediate(() => this.startTurn());
      }
    });
  }
}
