/** What a group needs of the database: a transaction, and savepoints inside it. */
export interface GroupedTransactions {
  transaction<T>(work: () => Promise<T>): Promise<T>;
  savepoint<T>(work: () => Promise<T>): Promise<T>;
}

/** Enough to amortise a commit; few enough that the writer's turn stays short for the others. */
const MAX_UNITS = 64;

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
 * A group asks for its transaction as soon as its first unit comes, and takes its units when the
 * transaction begins: those submitted while it waited for the writer's turn all go in, so groups
 * grow with the load and take their turn among the other writers, without a timer. While a group
 * runs, the next one waits for its turn. A unit runs in the group's transaction, in the group's
 * asynchronous context, and must wait on nothing but the database: the group holds the writer.
 */
export class GroupCommit {
  private waiting: Unit[] = [];
  /** Whether a group waits for its transaction, and will take the units waiting. */
  private queued = false;

  constructor(
    private readonly db: GroupedTransactions,
    private readonly maxUnits = MAX_UNITS,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.queued) {
        void this.commitGroup();
      }
    });
  }

  private async commitGroup(): Promise<void> {
    this.queued = true;
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
      (units ?? this.takeUnits()).forEach((unit) => unit.reject(error));
      return;
    }
    for (const outcome of outcomes) {
      if ('error' in outcome) {
        outcome.unit.reject(outcome.error);
      } else {
        outcome.unit.resolve(outcome.value);
      }
    }
  }

  /** This group's units; units beyond them, and those to come, go to the next group. */
  private takeUnits(): Unit[] {
    this.queued = false;
    const units = this.waiting.splice(0, this.maxUnits);
    if (this.waiting.length > 0) {
      void this.commitGroup();
    }
    return units;
  }
}
