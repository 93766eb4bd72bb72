import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { Database } from '../database.service';
import { JobTable } from './job-table';

@Entity('jobs')
class JobRow {
  @PrimaryColumn('varchar') id!: string;
  @Column({ name: 'lease_until', type: 'datetime', nullable: true }) leaseUntil!: Date | null;
  @Column({ name: 'lease_token', type: 'varchar', nullable: true }) leaseToken!: string | null;
}

/** JobTable's claims on SQLite (an in-memory database), where they share commits. */
describe('JobTable.claim', () => {
  let dataSource: DataSource;
  let db: Database;
  let jobs: JobTable<JobRow>;

  beforeEach(async () => {
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [JobRow],
      synchronize: true,
    }).initialize();
    db = new Database(dataSource);
    await db.insert(JobRow, [
      { id: 'a', leaseUntil: null, leaseToken: null },
      { id: 'b', leaseUntil: null, leaseToken: null },
    ]);
    jobs = new JobTable(db, JobRow, { table: 'jobs', due: () => '1 = 1', dueOrder: 'id' });
  });

  afterEach(() => dataSource.destroy());

  it('commits a claim asked for once a group committed in that same turn, not the next', async () => {
    const heard: string[] = [];
    await db.grouped(async () => undefined);
    // What a job queue does when the stored outcome of one job frees the slot of the next.
    setImmediate(() => heard.push('next turn'));
    const claim = await jobs.claim('a', 1_000);
    heard.push(`claimed ${claim?.row.id}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual(['claimed a', 'next turn']);
  });

  it('joins the caller’s transaction, alone, and rolls back with it', async () => {
    await expect(
      db.transaction(async () => {
        expect((await jobs.claim('b', 1_000))?.row.id).toBe('b');
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect((await jobs.claim('b', 1_000))?.row.leaseToken).toEqual(expect.any(String));
  });
});
