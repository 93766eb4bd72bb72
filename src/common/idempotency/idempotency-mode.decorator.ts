import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENCY_MODE = 'console:idempotency-mode';

/**
 * How a write route runs under an Idempotency-Key:
 * - `atomic` (the default): its writes and its stored response commit in one transaction.
 * - `calls_out`: it calls another server, holding no transaction (the key's lease keeps a
 *   duplicate out meanwhile), then writes the outcome and the stored response in one short
 *   transaction through `WritePhase`.
 * - `never_stored`: its response is a credential of the caller that asked, never handed out again;
 *   it runs every time and nothing is stored.
 */
export type IdempotencyMode = 'atomic' | 'calls_out' | 'never_stored';

export const Idempotency = (mode: IdempotencyMode) => SetMetadata(IDEMPOTENCY_MODE, mode);
