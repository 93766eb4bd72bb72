import { randomUUID } from 'node:crypto';
import type { Database } from '../database.service';

/** Ids in one claim statement at most. */
const MAX_CLAIMS = 100;

/** Claims the due and free rows among `ids` with `token`; those claimed, by id. */
type ClaimRows<T> = (
  ids: readonly string[],
  leaseMs: number,
  now: Date,
  token: string,
) => Promise<Map<string, T>>;

interface Batch<T> {
  ids: Set<string>;
  claimed: Promise<{ rows: Map<string, T>; token: string }>;
}

/**
 * Claims of one job table asked for close together, written as one statement in one commit
 * (`Database.writeGrouped`, so on SQLite with whatever else commits then). A batch takes claims
 * until its statement runs; each claim still resolves only once the batch is committed, so a job never
 * runs on a claim that could roll back. Claims at the same moment and for the same lease go
 * together; a row asked for twice in one batch goes to the first asker.
 */
export class ClaimBatches<T> {
  private readonly open = new Map<string, Batch<T>>();

  constructor(
    private readonly db: Pick<Database, 'writeGrouped'>,
    private readonly claimRows: ClaimRows<T>,
  ) {}

  async claim(id: string, leaseMs: number, now?: Date): Promise<{ row: T; token: string } | null> {
    const batch = this.batchFor(leaseMs, now);
    if (batch.ids.has(id)) {
      return null;
    }
    batch.ids.add(id);
    const { rows, token } = await batch.claimed;
    const row = rows.get(id);
    return row ? { row, token } : null;
  }

  private batchFor(leaseMs: number, now: Date | undefined): Batch<T> {
    const key = `${leaseMs}@${now?.getTime() ?? 'commit'}`;
    const open = this.open.get(key);
    if (open && open.ids.size < MAX_CLAIMS) {
      return open;
    }
    const ids = new Set<string>();
    // Handed over once the claims asked for with this one (a queue starting its jobs) are in: on
    // SQLite the batch then takes claims until its group begins; elsewhere its statement runs.
    const claimed = Promise.resolve().then(() =>
      this.db.writeGrouped(async () => {
        // From here on, claims go to the next batch.
        if (this.open.get(key)?.ids === ids) {
          this.open.delete(key);
        }
        const token = randomUUID();
        return { rows: await this.claimRows([...ids], leaseMs, now ?? new Date(), token), token };
      }),
    );
    const batch = { ids, claimed };
    this.open.set(key, batch);
    return batch;
  }
}
