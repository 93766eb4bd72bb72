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
 * One group runs at a time: units submitted while it runs make up the next, so groups grow with
 * the load, and a lone unit waits one turn of the event loop. A unit runs in the group's
 * transaction, in the group's asynchronous context, and must not wait on anything but the
 * database: the group holds the writer's turn.
 */
export class GroupCommit {
  private waiting: Unit[] = [];
  private busy = false;

  constructor(
    private readonly db: GroupedTransactions,
    private readonly maxUnits = MAX_UNITS,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.startSoon();
    });
  }

  private startSoon(): void {
    if (!this.busy) {
      this.busy = true;
      setImmediate(() => void this.commitGroup());
    }
  }

  private async commitGroup(): Promise<void> {
    // Taken once the transaction has begun (the writer's turn can take a while to come), so the
    // units submitted meanwhile join this group.
    let units: Unit[] | undefined;
    let outcomes: Outcome[] = [];
    try {
      await this.db.transaction(async () => {
        units ??= this.waiting.splice(0, this.maxUnits);
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
      (units ?? this.waiting.splice(0, this.maxUnits)).forEach((unit) => unit.reject(error));
      return;
    } finally {
      this.busy = false;
      if (this.waiting.length > 0) {
        this.startSoon();
      }
    }
    for (const outcome of outcomes) {
      if ('error' in outcome) {
        outcome.unit.reject(outcome.error);
      } else {
        outcome.unit.resolve(outcome.value);
      }
    }
  }
}
