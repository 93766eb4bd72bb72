import { randomBytes } from 'node:crypto';
import { DataSource, QueryFailedError } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { newId } from '@/common/ids';
import { ConsoleDataSource } from '@/database/console-data-source';
import { Database } from '@/database/database.service';
import { dataSourceOptions } from '@/database/data-source-options';
import { isUniqueViolation } from '@/database/errors';
import { migrate } from '@/database/migrate';
import { TeamEntity } from '@/modules/auth/entities/team.entity';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { copyMigratedTemplate } from '../factories/template-database';
import { createTestDatabase, TestDatabase } from '../factories/test-database';

/**
 * The hot paths' own statements (database/prepared-statements.ts) against the engine the suite
 * runs on (TEST_POSTGRES_URL, else SQLite): rows read with them must be the entities the ORM
 * reads, writes must join the caller's transaction, and driver errors must read as the ORM's.
 */
describe('Database statements of our own', () => {
  let testDatabase: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  const teamId = newId();

  beforeAll(async () => {
    testDatabase = (await copyMigratedTemplate()) ?? (await createTestDatabase());
    dataSource = await new ConsoleDataSource({
      ...dataSourceOptions(testDatabase.url, randomBytes(32), 4),
      entities: [TeamEntity, WorkflowEntity],
    }).initialize();
    await migrate(dataSource);
    db = new Database(dataSource);
    await dataSource.manager.insert(TeamEntity, {
      id: teamId,
      name: `Statements ${teamId}`,
      createdAt: new Date(),
    });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await testDatabase?.drop();
  });

  const workflow = (name: string): WorkflowEntity => ({
    id: newId(),
    teamId,
    name,
    description: null,
    category: 'Support',
    visibility: 'private',
    systemPrompt: null,
    rules: [],
    flows: [],
    tags: ['a', 'b'],
    integrations: [],
    channels: [{ type: 'web' }],
    actions: [],
    guide: null,
    faq: [{ question: 'Open?', answer: 'Yes' }],
    setupSteps: [],
    setupTime: 15,
    videoUrl: null,
    promptConfig: { tone: 'warm' },
    createdAt: new Date('2026-11-20T10:00:00.123Z'),
    updatedAt: new Date('2026-11-21T11:30:00.456Z'),
  });

  const insert = (stored: WorkflowEntity) =>
    dataSource.manager.insert(WorkflowEntity, stored as QueryDeepPartialEntity<WorkflowEntity>);

  it('reads a row as the entity the ORM reads', async () => {
    const stored = workflow('Read back');
    await insert(stored);
    const byOrm = await dataSource.manager.findOneByOrFail(WorkflowEntity, { id: stored.id });
    const byStatement = await db.entity(
      WorkflowEntity,
      'SELECT * FROM workflows WHERE team_id = $1 AND id = $2',
      [teamId, stored.id],
    );
    expect(byStatement).toEqual({ ...byOrm });
    expect(byStatement).toEqual(stored);
    expect(
      await db.entity(WorkflowEntity, 'SELECT * FROM workflows WHERE id = $1', [newId()]),
    ).toBeNull();
  });

  it('hydrates rows of some columns, leaving the others unset', async () => {
    const stored = workflow('Some columns');
    await insert(stored);
    const { rows } = await db.execute(
      'SELECT id, tags, updated_at, setup_time FROM workflows WHERE team_id = $1 AND id = $2',
      [teamId, stored.id],
    );
    const [hydrated] = db.hydrate(WorkflowEntity, rows);
    expect({ ...hydrated }).toEqual({
      id: stored.id,
      tags: stored.tags,
      updatedAt: stored.updatedAt,
      setupTime: stored.setupTime,
    });
  });

  it('binds a parameter used twice, Dates and booleans as the ORM stores them', async () => {
    const stored = workflow('Twice');
    await insert(stored);
    const { rows } = await db.execute<{ id: string }>(
      'SELECT id FROM workflows WHERE team_id = $1 AND created_at = $2 AND (id = $3 OR name = $3)',
      [teamId, stored.createdAt, stored.id],
    );
    expect(rows).toEqual([{ id: stored.id }]);
  });

  it('writes inside the caller’s transaction, and a rollback undoes them', async () => {
    const stored = workflow('Rolled back');
    await insert(stored);
    await expect(
      db.transaction(async () => {
        const { changes } = await db.execute(
          'UPDATE workflows SET name = $1 WHERE team_id = $2 AND id = $3',
          ['Renamed', teamId, stored.id],
        );
        expect(changes).toBe(1);
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect((await dataSource.manager.findOneByOrFail(WorkflowEntity, { id: stored.id })).name).toBe(
      'Rolled back',
    );
  });

  it('returns the rows a write names with RETURNING, and counts the rows it changed', async () => {
    const stored = workflow('Returning');
    await insert(stored);
    const { rows, changes } = await db.write(() =>
      db.execute<{ setup_time: number }>(
        'UPDATE workflows SET setup_time = setup_time + 1 WHERE team_id = $1 AND id = $2 ' +
          'RETURNING setup_time',
        [teamId, stored.id],
      ),
    );
    expect(changes).toBe(1);
    expect(rows.map((row) => Number(row.setup_time))).toEqual([16]);
  });

  it('inserts whole entities that read back as stored, and skips taken keys when told', async () => {
    const stored = [workflow('Inserted one'), workflow('Inserted two')];
    expect(await db.write(() => db.insert(WorkflowEntity, stored))).toBe(2);
    for (const one of stored) {
      const byOrm = await dataSource.manager.findOneByOrFail(WorkflowEntity, { id: one.id });
      expect({ ...byOrm }).toEqual(one);
    }
    const twin = { ...stored[0], name: 'Twin' };
    const written = await db.write(() => db.insert(WorkflowEntity, [twin], { orIgnore: true }));
    expect(written).toBe(0);
    const kept = await dataSource.manager.findOneByOrFail(WorkflowEntity, { id: twin.id });
    expect(kept.name).toBe('Inserted one');
    const error = await db
      .write(() => db.insert(WorkflowEntity, [twin]))
      .catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('reports a driver error as the ORM does', async () => {
    const stored = workflow('Twin');
    await insert(stored);
    const error = await db
      .write(() =>
        db.execute('INSERT INTO teams (id, name, created_at) VALUES ($1, $2, $3)', [
          teamId,
          'Again',
          new Date(),
        ]),
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(isUniqueViolation(error)).toBe(true);
  });

  describe('the everyday statements of an entity (find, count, update, delete)', () => {
    it('finds by equality, null and lists, in order, as the entities the ORM reads', async () => {
      const [a, b, c] = ['Find A', 'Find B', 'Find C'].map(workflow);
      c.description = 'described';
      for (const stored of [a, b, c]) {
        await insert(stored);
      }
      const ours = { teamId, id: [a.id, b.id, c.id] } as const;
      expect(await db.find(WorkflowEntity, ours, { orderBy: { name: 'DESC' } })).toEqual([
        await dataSource.manager.findOneByOrFail(WorkflowEntity, { id: c.id }),
        await dataSource.manager.findOneByOrFail(WorkflowEntity, { id: b.id }),
        await dataSource.manager.findOneByOrFail(WorkflowEntity, { id: a.id }),
      ]);
      expect(
        (await db.find(WorkflowEntity, { ...ours, description: null })).map((w) => w.name).sort(),
      ).toEqual(['Find A', 'Find B']);
      expect(await db.find(WorkflowEntity, { teamId, id: [] })).toEqual([]);
      expect((await db.findOne(WorkflowEntity, { teamId, id: b.id }))?.name).toBe('Find B');
      expect(await db.findOne(WorkflowEntity, { teamId, id: newId() })).toBeNull();
      expect(await db.count(WorkflowEntity, ours)).toBe(3);
      expect(
        (await db.find(WorkflowEntity, ours, { orderBy: { name: 'ASC' }, limit: 2 })).map(
          (w) => w.name,
        ),
      ).toEqual(['Find A', 'Find B']);
    });

    it('updates and deletes only what the condition names, and counts what it changed', async () => {
      const [a, b] = ['Change A', 'Change B'].map(workflow);
      await insert(a);
      await insert(b);
      const at = new Date('2026-11-25T09:00:00.000Z');
      expect(
        await db.update(WorkflowEntity, { teamId, id: a.id }, { name: 'Changed', updatedAt: at }),
      ).toBe(1);
      expect(await dataSource.manager.findOneByOrFail(WorkflowEntity, { id: a.id })).toMatchObject({
        name: 'Changed',
        updatedAt: at,
      });
      expect((await db.findOne(WorkflowEntity, { id: b.id }))?.name).toBe('Change B');
      expect(await db.delete(WorkflowEntity, { teamId, id: [a.id, b.id] })).toBe(2);
      expect(await db.count(WorkflowEntity, { id: [a.id, b.id] })).toBe(0);
    });

    it('refuses a statement without a condition, or a property the entity lacks', async () => {
      await expect(db.delete(WorkflowEntity, {})).rejects.toThrow(/without a condition/);
      await expect(
        db.find(WorkflowEntity, { nope: 1 } as unknown as { teamId: string }),
      ).rejects.toThrow(/no column for nope/);
    });
  });

  describe('savepoints and grouped transactions', () => {
    const rename = (id: string, name: string) =>
      db.execute('UPDATE workflows SET name = $1 WHERE team_id = $2 AND id = $3', [
        name,
        teamId,
        id,
      ]);
    /** A statement the engine refuses (PostgreSQL then aborts the whole transaction). */
    const failing = () =>
      db.execute('INSERT INTO teams (id, name, created_at) VALUES ($1, $2, $3)', [
        teamId,
        'Again',
        new Date(),
      ]);
    const nameOf = async (id: string) => (await db.findOne(WorkflowEntity, { id }))?.name;

    it('undoes a savepoint whose statement failed; the transaction carries on and commits', async () => {
      const stored = workflow('Before');
      await insert(stored);
      const heard: string[] = [];
      await db.transaction(async () => {
        await rename(stored.id, 'Outer');
        db.afterCommit(() => heard.push('outer'));
        await expect(
          db.savepoint(async () => {
            await rename(stored.id, 'Inner');
            db.afterCommit(() => heard.push('inner'));
            await failing();
          }),
        ).rejects.toBeInstanceOf(QueryFailedError);
        await db.execute('UPDATE workflows SET setup_time = 99 WHERE id = $1', [stored.id]);
      });
      expect(await db.findOne(WorkflowEntity, { id: stored.id })).toMatchObject({
        name: 'Outer',
        setupTime: 99,
      });
      expect(heard).toEqual(['outer']);
    });

    it('commits the grouped work that succeeded beside work whose statement failed', async () => {
      const [a, b] = [workflow('Group A'), workflow('Group B')];
      await insert(a);
      await insert(b);
      const outcomes = await Promise.allSettled([
        db.grouped(() => rename(a.id, 'Grouped A')),
        db.grouped(async () => {
          await rename(b.id, 'Lost');
          await failing();
        }),
        db.grouped(() => rename(b.id, 'Grouped B')),
      ]);
      expect(outcomes.map(({ status }) => status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect([await nameOf(a.id), await nameOf(b.id)]).toEqual(['Grouped A', 'Grouped B']);
    });
  });
});
