import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { Database } from './database.service';

const deadlock = () =>
  new QueryFailedError(
    'DELETE',
    [],
    Object.assign(new Error('deadlock detected'), { code: '40P01' }),
  );

/** A PostgreSQL data source whose first `failures` transactions are aborted by a deadlock. */
function postgresFailing(failures: number) {
  let calls = 0;
  const dataSource = {
    options: { type: 'postgres' },
    manager: {} as EntityManager,
    transaction: async (work: (manager: EntityManager) => Promise<unknown>) => {
      calls++;
      const result = await work({} as EntityManager);
      if (calls <= failures) {
        throw deadlock();
      }
      return result;
    },
  };
  return { database: new Database(dataSource as unknown as DataSource), calls: () => calls };
}

describe('Database.transaction', () => {
  it('runs a transaction PostgreSQL aborted to break a deadlock again', async () => {
    const { database, calls } = postgresFailing(2);
    const committed = jest.fn();
    const result = await database.transaction(async () => {
      database.afterCommit(committed);
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls()).toBe(3);
    // Only the attempt that committed tells anyone.
    expect(committed).toHaveBeenCalledTimes(1);
  });

  it('gives up after three deadlocks in a row', async () => {
    const { database, calls } = postgresFailing(5);
    await expect(database.transaction(async () => 'never')).rejects.toThrow('deadlock detected');
    expect(calls()).toBe(3);
  });
});

describe('Database.write', () => {
  it('runs a lone statement PostgreSQL aborted to break a deadlock again, without a transaction', async () => {
    const { database, calls } = postgresFailing(0);
    let attempts = 0;
    const result = await database.write(async () => {
      if (++attempts <= 2) {
        throw deadlock();
      }
      return 'written';
    });
    expect(result).toBe('written');
    expect(attempts).toBe(3);
    expect(calls()).toBe(0);
  });

  it('joins the open transaction', async () => {
    const { database, calls } = postgresFailing(0);
    const joined = await database.transaction(() =>
      database.write(async () => database.inTransaction),
    );
    expect(joined).toBe(true);
    expect(calls()).toBe(1);
  });
});
