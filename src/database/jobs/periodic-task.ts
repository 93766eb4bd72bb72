import { randomUUID } from 'node:crypto';
import { Database } from '../database.service';
import { SqlParams } from '../sql/params';

/**
 * A task that one instance at a time runs every so often (retention): a row per task in
 * `periodic_tasks`, claimed with a lease and a token like any job, and due again `intervalMs`
 * after it finished.
 */
export class PeriodicTask {
  constructor(
    private readonly db: Database,
    readonly name: string,
    private readonly intervalMs: number,
    private readonly leaseMs: number,
  ) {}

  /** Runs `work` if the task is due and nobody runs it; whether it ran. */
  async runIfDue(work: () => Promise<void>): Promise<boolean> {
    const token = await this.claim();
    if (!token) {
      return false;
    }
    try {
      await work();
    } finally {
      await this.finish(token);
    }
    return true;
  }

  private async claim(): Promise<string | null> {
    const now = new Date();
    await this.db.write(() =>
      this.db.execute(
        'INSERT INTO periodic_tasks (id, due_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
        [this.name, now],
      ),
    );
    const params = new SqlParams();
    const token = randomUUID();
    const sql =
      `UPDATE periodic_tasks SET lease_until = ${params.add(new Date(now.getTime() + this.leaseMs))}, ` +
      `lease_token = ${params.add(token)} WHERE id = ${params.add(this.name)} ` +
      `AND due_at <= ${params.add(now)} AND (lease_until IS NULL OR lease_until < ${params.add(now)})`;
    const { changes } = await this.db.write(() => this.db.execute(sql, params.values));
    return changes > 0 ? token : null;
  }

  private async finish(token: string): Promise<void> {
    await this.db.write(() =>
      this.db.execute(
        `UPDATE periodic_tasks SET due_at = $1, lease_until = NULL, lease_token = NULL
         WHERE id = $2 AND lease_token = $3`,
        [new Date(Date.now() + this.intervalMs), this.name, token],
      ),
    );
  }
}
