import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';

/** Stores the response of the running request under its Idempotency-Key, in the open transaction. */
export type ResponseRecorder = (response: unknown) => Promise<void>;

/**
 * The last phase of a handler that calls out (`@Idempotency('calls_out')`): once its calls are
 * made, holding no transaction, `run` writes their outcome in one short transaction. Under an
 * Idempotency-Key the stored response commits in that same transaction, so a crash leaves both
 * or neither, as for handlers that only write locally.
 */
@Injectable()
export class WritePhase {
  private readonly recorder = new AsyncLocalStorage<ResponseRecorder>();

  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction; what it returns is the handler's response. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const record = this.recorder.getStore();
    return this.db.transaction(async () => {
      const response = await work();
      await record?.(response);
      return response;
    });
  }

  /** Runs `handler` with `record` as the way its write phase stores the response. */
  recording<T>(record: ResponseRecorder, handler: () => Promise<T>): Promise<T> {
    return this.recorder.run(record, handler);
  }
}
