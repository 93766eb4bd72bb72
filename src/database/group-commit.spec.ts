import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource } from 'typeorm';
import { Database } from './database.service';
import { GroupCommit, GroupedTransactions } from './group-commit';

/** Database.grouped on SQLite (an in-memory database): the engine whose one writer it groups for. */
describe('Database.grouped (GroupCommit)', () => {
  let dataSource: DataSource;
  let db: Database;
  let transactions: jest.SpyInstance;

  beforeEach(async () => {
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
    }).initialize();
    db = new Database(dataSource);
    await db.write(() => db.execute('CREATE TABLE notes (id TEXT PRIMARY KEY)'));
    transactions = jest.spyOn(dataSource, 'transaction');
  });

  afterEach(() => dataSource.destroy());

  const note = (id: string) => db.execute('INSERT INTO notes (id) VALUES ($1)', [id]);
  const notes = async () =>
    (await db.execute<{ id: string }>('SELECT id FROM notes ORDER BY id')).rows.map(({ id }) => id);

  it('commits the units submitted together in one transaction', async () => {
    const results = await Promise.all(
      ['a', 'b', 'c'].map((id) => db.grouped(async () => (await note(id), id.toUpperCase()))),
    );
    expect(results).toEqual(['A', 'B', 'C']);
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(await notes()).toEqual(['a', 'b', 'c']);
  });

  it('undoes a failing unit alone: its writes and its after-commit callbacks', async () => {
    const heard: string[] = [];
    const unit = (id: string, fails = false) =>
      db.grouped(async () => {
        await note(id);
        db.afterCommit(() => heard.push(`committed ${id}`));
        if (fails) {
          throw new Error(`${id} failed`);
        }
        return id;
      });
    const outcomes = await Promise.allSettled([unit('a'), unit('b', true), unit('c')]);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: new Error('b failed') },
      { status: 'fulfilled', value: 'c' },
    ]);
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(await notes()).toEqual(['a', 'c']);
    expect(heard).toEqual(['committed a', 'committed c']);
  });

  it('runs nothing more, and commits nothing, once a failure took the whole transaction with it', async () => {
    const outcomes = await Promise.allSettled([
      db.grouped(() => note('a')),
      // As SQLite does itself on a full disk or an I/O error.
      db.grouped(async () => {
        await note('b');
        await db.execute('ROLLBACK');
        throw new Error('disk I/O error');
      }),
      db.grouped(() => note('c')),
    ]);
    expect(outcomes.map(({ status }) => status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await notes()).toEqual([]);
  });

  it("runs every unit's after-commit callbacks once the group committed, in the units' order, before any unit hears", async () => {
    const heard: string[] = [];
    const unit = (id: string) =>
      db
        .grouped(async () => {
          await note(id);
          db.afterCommit(() =>
            heard.push(`${id} committed, in a transaction: ${db.inTransaction}`),
          );
        })
        .then(() => heard.push(`${id} resolved`));
    await Promise.all([unit('a'), unit('b')]);
    expect(heard).toEqual([
      'a committed, in a transaction: false',
      'b committed, in a transaction: false',
      'a resolved',
      'b resolved',
    ]);
  });

  it('keeps what a unit wrote before a savepoint of its own that failed', async () => {
    await db.grouped(async () => {
      await note('kept');
      await expect(
        db.savepoint(async () => {
          await note('undone');
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
    });
    expect(await notes()).toEqual(['kept']);
  });

  it('puts the units submitted while a group runs into the next group, together', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = db.grouped(async () => {
      await note('a');
      await held;
    });
    // The first group has begun: the units now submitted wait for the next.
    await new Promise((resolve) => setImmediate(resolve));
    const later = ['b', 'c'].map((id) => db.grouped(() => note(id)));
    release();
    await Promise.all([first, ...later]);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(await notes()).toEqual(['a', 'b', 'c']);
  });

  it("runs each unit in its caller's asynchronous context, inside the group's transaction", async () => {
    const caller = new AsyncLocalStorage<string>();
    const seen = await Promise.all(
      ['a', 'b'].map((id) =>
        caller.run(id, () =>
          db.grouped(async () => (await note(id), `${caller.getStore()} ${db.inTransaction}`)),
        ),
      ),
    );
    expect(seen).toEqual(['a true', 'b true']);
    expect(transactions).toHaveBeenCalledTimes(1);
  });

  it("joins the caller's open transaction", async () => {
    await db.transaction(async () => {
      await note('a');
      expect(await db.grouped(async () => db.inTransaction)).toBe(true);
    });
    expect(transactions).toHaveBeenCalledTimes(1);
  });

  it('takes turns with the other writers', async () => {
    const written = await Promise.all([
      db.transaction(() => note('a')),
      db.grouped(() => note('b')),
      db.write(() => note('c')),
      db.grouped(() => note('d')),
    ]);
    expect(written.map(({ changes }) => changes)).toEqual([1, 1, 1, 1]);
    expect(await notes()).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('GroupCommit', () => {
  /** Transactions that run their work, then fail to commit. */
  const failingCommits: GroupedTransactions = {
    transaction: async (work) => {
      await work();
      throw new Error('disk I/O error');
    },
    savepoint: (work) => work(),
  };

  it("tells every unit of a group whose commit failed the group's error", async () => {
    const groups = new GroupCommit(failingCommits);
    const outcomes = await Promise.allSettled([
      groups.run(async () => 'a'),
      groups.run(async () => {
        throw new Error('b failed');
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && outcome.reason)).toEqual([
      new Error('disk I/O error'),
      new Error('disk I/O error'),
    ]);
  });

  it('takes as many units as a group holds, and the rest in the next', async () => {
    const groupSizes: number[] = [];
    let writer = Promise.resolve();
    const groups = new GroupCommit(
      {
        // One transaction at a time, each beginning a little later, as the writer's turns do.
        transaction: <T>(work: () => Promise<T>) => {
          const turn = writer.then(async () => {
            groupSizes.push(0);
            return work();
          });
          writer = turn.then(() => undefined);
          return turn;
        },
        savepoint: (work) => (groupSizes[groupSizes.length - 1]++, work()),
      },
      2,
    );
    await Promise.all([1, 2, 3, 4, 5].map((n) => groups.run(async () => n)));
    expect(groupSizes).toEqual([2, 2, 1]);
  });
});

describe('Database.grouped on PostgreSQL', () => {
  it('gives each unit a transaction of its own: PostgreSQL runs them side by side', async () => {
    let transactions = 0;
    const dataSource = {
      options: { type: 'postgres' },
      transaction: async (work: (manager: unknown) => Promise<unknown>) => {
        transactions++;
        return work({});
      },
    } as unknown as DataSource;
    const db = new Database(dataSource);
    const results = await Promise.all([db.grouped(async () => 1), db.grouped(async () => 2)]);
    expect(results).toEqual([1, 2]);
    expect(transactions).toBe(2);
  });
});
