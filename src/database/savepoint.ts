/** One name for every savepoint (they nest strictly): each statement is prepared once. */
const SAVEPOINT = 'console_unit';

/** What a savepoint reads and changes of the transaction it is taken in. */
export interface SavepointScope {
  afterCommit: Array<() => void>;
  /** Set once a savepoint could not be rolled back to: no other may follow (the commit fails). */
  broken?: Error;
}

/**
 * Runs `work` inside a savepoint of the open transaction `scope`: when it fails, its writes and
 * the after-commit callbacks it asked for are undone and the transaction carries on.
 */
export async function inSavepoint<T>(
  scope: SavepointScope,
  execute: (sql: string) => Promise<unknown>,
  work: () => Promise<T>,
): Promise<T> {
  if (scope.broken) {
    throw scope.broken;
  }
  const callbacks = scope.afterCommit.length;
  await execute(`SAVEPOINT ${SAVEPOINT}`);
  try {
    const result = await work();
    await execute(`RELEASE SAVEPOINT ${SAVEPOINT}`);
    return result;
  } catch (error) {
    try {
      await execute(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      await execute(`RELEASE SAVEPOINT ${SAVEPOINT}`);
    } catch {
      // SQLite rolls the whole transaction back on some errors (a full disk, I/O): what followed
      // would run on its own and commit, so nothing more runs, and the commit fails.
      scope.broken = new Error('The transaction was lost to a failed savepoint', { cause: error });
    }
    scope.afterCommit.length = callbacks;
    throw error;
  }
}
