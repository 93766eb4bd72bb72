import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, defer, finalize, from, lastValueFrom, mergeMap, Observable, of } from 'rxjs';
import { Database } from '@/database/database.service';
import { Errors, ValidationFailedError } from '../http/api-error';
import { envelopeFor } from '../http/envelope.interceptor';
import { RouteMetadata } from '../http/route-metadata';
import { toErrorResponse } from '../http/error-response';
import { requestIdOf } from '../http/request-id';
import { requestFingerprint } from './fingerprint';
import { IDEMPOTENCY_MODE, IdempotencyMode } from './idempotency-mode.decorator';
import { ClaimLostError, HeldKey, IdempotencyStore } from './idempotency.store';
import { WritePhase } from './write-phase';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const IDEMPOTENT_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ACCEPTABLE_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The first request with a key claims it; its handler's writes commit in one transaction with the
 * storing of its response, so a crash can never leave work done without the response that would
 * replay it. That transaction wraps the whole handler, unless the route calls out (see
 * `IdempotencyMode`): no transaction is held while another server is waited for.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly db: Database,
    private readonly writePhase: WritePhase,
    private readonly metadata: RouteMetadata,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.headers[IDEMPOTENCY_KEY_HEADER];
    if (!IDEMPOTENT_METHODS.has(req.method) || key === undefined || !req.principal) {
      return next.handle();
    }
    if (typeof key !== 'string' || !ACCEPTABLE_KEY.test(key)) {
      throw Errors.badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const mode = this.metadata.get<IdempotencyMode>(IDEMPOTENCY_MODE, context) ?? 'atomic';
    if (mode === 'never_stored') {
      return next.handle();
    }
    const teamId = req.principal.teamId;
    const fingerprint = requestFingerprint(req.method, req.originalUrl, req.body);
    return from(this.store.claim(teamId, key, fingerprint)).pipe(
      mergeMap((claim) => {
        switch (claim.kind) {
          case 'replay':
            res.status(claim.status).setHeader(REPLAYED_HEADER, 'true');
            return of(JSON.parse(claim.body) as unknown);
          case 'mismatch':
            throw Errors.conflict(
              'This Idempotency-Key was used with a different request (method, path or body)',
              422,
            );
          case 'in_flight':
            throw Errors.conflict('A request with this Idempotency-Key is still in progress');
          case 'claimed':
            return this.runClaimed(claim, mode, context, next);
        }
      }),
    );
  }

  private runClaimed(
    held: HeldKey,
    mode: 'atomic' | 'calls_out',
    context: ExecutionContext,
    next: CallHandler,
  ): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    return defer(() => {
      // An atomic run on SQLite holds the one writer lock until it commits, so no duplicate can
      // take its claim over meanwhile, and a renewal would only queue behind it.
      const holdsWriter = mode === 'atomic' && this.db.dialect.embedded;
      const stopRenewing = holdsWriter ? () => undefined : this.store.keepAlive(held);
      const run =
        mode === 'calls_out'
          ? this.runCallingOut(held, context, res, next)
          : this.runAtomically(held, res, next);
      return from(run).pipe(finalize(stopRenewing));
    }).pipe(
      catchError((error: unknown) =>
        from(this.settleFailure(held, error, req)).pipe(
          mergeMap(() => {
            throw error;
          }),
        ),
      ),
    );
  }

  private runAtomically(held: HeldKey, res: Response, next: CallHandler): Promise<unknown> {
    return this.db.transaction(async () => {
      const body: unknown = await lastValueFrom(next.handle(), { defaultValue: null });
      await this.store.complete(held, res.statusCode, JSON.stringify(body));
      return body;
    });
  }

  /**
   * The handler runs outside any transaction; its write phase stores the response with its
   * writes. The response of a handler that wrote nothing is stored once it returns.
   */
  private async runCallingOut(
    held: HeldKey,
    context: ExecutionContext,
    res: Response,
    next: CallHandler,
  ): Promise<unknown> {
    const envelope = envelopeFor(this.metadata, context) ?? ((result: unknown) => result);
    let recorded = false;
    const body: unknown = await this.writePhase.recording(
      async (response) => {
        if (recorded) {
          throw new Error('A handler that calls out has one write phase');
        }
        recorded = true;
        await this.store.complete(held, res.statusCode, JSON.stringify(envelope(response)));
      },
      () => lastValueFrom<unknown, null>(next.handle(), { defaultValue: null }),
    );
    if (!recorded) {
      await this.store.complete(held, res.statusCode, JSON.stringify(body));
    }
    return body;
  }

  /**
   * A refusal by the handler is part of the outcome and replays; anything else frees the key, as
   * does a refusal that could not be stored. Both are no-ops if a retry took the key over
   * meanwhile: the key is the retry's now.
   */
  private async settleFailure(held: HeldKey, error: unknown, req: Request): Promise<void> {
    const { status, body } = toErrorResponse(error, requestIdOf(req));
    if (error instanceof ValidationFailedError || status >= 500) {
      await this.store.release(held);
      return;
    }
    try {
      await this.store.complete(held, status, JSON.stringify(body));
    } catch (storeError) {
      if (!(storeError instanceof ClaimLostError)) {
        await this.store.release(held);
      }
    }
  }
}
