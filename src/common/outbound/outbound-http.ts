import { lookup } from 'node:dns';
import { promises as dns } from 'node:dns';
import { isIP, LookupFunction } from 'node:net';
import { Injectable } from '@nestjs/common';
import type { Agent } from 'undici';
import { withClientSpan } from '@/common/tracing/client-span';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { isCallableAddress, isPublicAddress } from './address-policy';

export const MAX_OUTBOUND_RESPONSE_BYTES = 5 * 1024 * 1024;

/** A call the address guard or the size cap stopped. */
export class OutboundRefusedError extends Error {}

/** A response body that passed MAX_OUTBOUND_RESPONSE_BYTES. */
export class ResponseTooLargeError extends OutboundRefusedError {}

const REFUSAL = 'must not point to a private, loopback, link-local or metadata address';

export type FetchFn = (url: string | URL, init?: RequestInit) => Promise<Response>;

let undici: Promise<typeof import('undici')> | undefined;
/** Loaded with the first outbound call: a start makes none (start-up time). */
const loadUndici = () => (undici ??= import('undici'));

/**
 * Every request the service makes to a URL a customer gave it goes through here: only http(s),
 * only public addresses (with OUTBOUND_ALLOW_PRIVATE private ones too, link-local and metadata
 * never; checked after DNS resolution, and again when the connection is made, so a name that
 * later resolves elsewhere is refused too), a deadline and a cap on the response size.
 * None is made inside a database transaction: it would hold the transaction (and on SQLite the
 * one writer lock) for as long as the other server takes.
 */
@Injectable()
export class OutboundHttp {
  private readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  /** The guarded connection pool, made with the first call for a customer. */
  private dispatcher: Promise<Agent> | undefined;

  constructor(
    config: AppConfig,
    private readonly db: Database,
  ) {
    this.allowPrivate = config.outbound.allowPrivate;
    this.timeoutMs = config.outbound.timeoutMs;
  }

  /** Why `rawUrl` may not be called, or null when it may. */
  async refusal(rawUrl: string): Promise<string | null> {
    this.assertNoTransaction();
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return 'must be a valid URL';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return 'must be an http or https URL';
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      return isCallableAddress(host, this.allowPrivate) ? null : REFUSAL;
    }
    // With private targets allowed a name is checked only when connected (guardedLookup): an
    // on-premises name may not resolve where the URL is configured.
    if (this.allowPrivate) {
      return null;
    }
    let addresses: string[];
    try {
      addresses = (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return 'host could not be resolved';
    }
    if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
      return REFUSAL;
    }
    return null;
  }

  /** A fetch bound to one operation: aborted at `deadline`, responses capped in size. */
  fetchFor(deadline: AbortSignal, maxBytes = MAX_OUTBOUND_RESPONSE_BYTES): FetchFn {
    this.assertNoTransaction();
    return async (url, init = {}) => {
      const target = new URL(url);
      this.assertLiteralAddressAllowed(target);
      this.dispatcher ??= loadUndici().then(
        ({ Agent: Pool }) => new Pool({ connect: { lookup: this.guardedLookup } }),
      );
      return send(target, init, deadline, maxBytes, await this.dispatcher);
    };
  }

  /**
   * A fetch to a service the operator configured (the language model), not a customer: it keeps
   * the rules of every outbound call (never inside a transaction, a deadline, a capped answer)
   * but not the address guard, since a model served on the same host or network (Ollama, vLLM)
   * is a normal set-up, and allowing private addresses for it would allow them for every
   * customer-given URL too.
   */
  operatorFetch(deadlineMs: number, maxBytes = MAX_OUTBOUND_RESPONSE_BYTES): FetchFn {
    return async (url, init = {}) => {
      this.assertNoTransaction();
      return send(new URL(url), init, AbortSignal.timeout(deadlineMs), maxBytes);
    };
  }

  private assertNoTransaction(): void {
    if (this.db.inTransaction) {
      throw new Error(
        'An outbound call inside a database transaction: make it first, then write (WritePhase)',
      );
    }
  }

  /** Connections to IP literals skip DNS, and with it the lookup guard below. */
  private assertLiteralAddressAllowed(url: URL): void {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !isCallableAddress(host, this.allowPrivate)) {
      throw new OutboundRefusedError(`${host} is not a public address`);
    }
  }

  private readonly guardedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const list = addresses as unknown as Array<{ address: string; family: number }>;
      const allowed = list.filter((entry) => isCallableAddress(entry.address, this.allowPrivate));
      if (allowed.length === 0) {
        callback(new OutboundRefusedError(`${hostname} resolves to no public address`), '', 0);
        return;
      }
      if (options.all) {
        (callback as unknown as (e: null, a: typeof allowed) => void)(null, allowed);
      } else {
        callback(null, allowed[0].address, allowed[0].family);
      }
    });
  };
}

/**
 * One outbound request, whoever it is for: aborted at `deadline` (or the caller's own signal), in
 * a client span that passes `traceparent` on, its answer capped in size.
 */
function send(
  target: URL,
  init: RequestInit,
  deadline: AbortSignal,
  maxBytes: number,
  dispatcher?: Agent,
): Promise<Response> {
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  return withClientSpan(target, init, async (sent) => {
    const { fetch: undiciFetch } = await loadUndici();
    const response = await undiciFetch(target, {
      ...(sent as object),
      signal,
      ...(dispatcher ? { dispatcher } : {}),
    });
    return capped(response, maxBytes);
  });
}

/** The same response, failing once its body passes `maxBytes`. */
function capped(response: Response, maxBytes: number): Response {
  if (!response.body) {
    return response;
  }
  let received = 0;
  const limiter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        controller.error(new ResponseTooLargeError(`response larger than ${maxBytes} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(limiter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
