import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { Database } from '@/database/database.service';

@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly db: Database,
  ) {}

  /** Up when the database answers a trivial statement within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<HealthIndicatorResult<'database'>> {
    const session = this.indicators.check('database');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.db.execute('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`timeout of ${timeoutMs}ms exceeded`)),
            timeoutMs,
          );
        }),
      ]);
      return session.up();
    } catch (error) {
      return session.down((error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }
}
