import type { Database } from '../database.service';
import { ClaimBatches } from './claim-batches';

describe('ClaimBatches', () => {
  let statements: Array<{ ids: readonly string[]; leaseMs: number }>;
  let committed: string[];
  let batches: ClaimBatches<{ id: string }>;
  /** The rows due and free. */
  let free: Set<string>;

  beforeEach(() => {
    statements = [];
    committed = [];
    free = new Set(['a', 'b', 'c']);
    // A group begins a little later, as the writer's turn comes, and commits after its work.
    const db = {
      writeGrouped: async <T>(work: () => Promise<T>) => {
        await Promise.resolve();
        const result = await work();
        committed.push('commit');
        return result;
      },
    } as unknown as Pick<Database, 'writeGrouped'>;
    batches = new ClaimBatches(db, async (ids, leaseMs) => {
      statements.push({ ids, leaseMs });
      const rows = ids.filter((id) => free.delete(id)).map((id) => [id, { id }] as const);
      return new Map(rows);
    });
  });

  it('writes the claims asked for together in one statement, each resolving once committed', async () => {
    const claims = await Promise.all(
      ['a', 'b', 'c'].map(async (id) => {
        const claim = await batches.claim(id, 1_000);
        return { claim, committedFirst: committed.length === 1 };
      }),
    );
    expect(statements).toEqual([{ ids: ['a', 'b', 'c'], leaseMs: 1_000 }]);
    expect(claims.map(({ claim }) => claim?.row.id)).toEqual(['a', 'b', 'c']);
    expect(claims.every(({ committedFirst }) => committedFirst)).toBe(true);
  });

  it('gives a row asked for twice in one batch to the first asker', async () => {
    const [first, second] = await Promise.all([
      batches.claim('a', 1_000),
      batches.claim('a', 1_000),
    ]);
    expect(first?.row).toEqual({ id: 'a' });
    expect(second).toBeNull();
    expect(statements).toEqual([{ ids: ['a'], leaseMs: 1_000 }]);
  });

  it('answers null for a row that was not due or free', async () => {
    free.delete('b');
    expect(await batches.claim('b', 1_000)).toBeNull();
  });

  it('writes claims for other leases or moments apart', async () => {
    const at = new Date('2030-01-01T00:00:00Z');
    await Promise.all([
      batches.claim('a', 1_000),
      batches.claim('b', 2_000),
      batches.claim('c', 1_000, at),
    ]);
    expect(statements.map(({ ids }) => ids)).toEqual([['a'], ['b'], ['c']]);
  });

  it('puts a claim asked for once the statement ran into the next batch', async () => {
    const first = batches.claim('a', 1_000);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, batches.claim('b', 1_000)]);
    expect(statements.map(({ ids }) => ids)).toEqual([['a'], ['b']]);
  });
});
