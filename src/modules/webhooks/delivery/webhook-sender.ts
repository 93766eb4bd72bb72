import { Injectable } from '@nestjs/common';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { signatureHeader } from './signature';

/** Read from a receiver's answer at most this much: only its status matters. */
const RESPONSE_READ_BYTES = 1024;
const ERROR_LENGTH = 500;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** No retry: the attempt cannot succeed later (the endpoint was turned off). */
  final?: boolean;
}

/** One signed POST of an event to an endpoint. */
@Injectable()
export class WebhookSender {
  constructor(private readonly outbound: OutboundHttp) {}

  async send(
    url: string,
    secret: string,
    eventId: string,
    payload: string,
  ): Promise<AttemptResult> {
    // The deadline covers the address check too: its DNS lookup has no timeout of its own, and an
    // attempt that outlives its lease would be sent again by another worker.
    const deadline = AbortSignal.timeout(this.outbound.timeoutMs);
    try {
      // Checked on every attempt, not only at registration: the name may resolve elsewhere now.
      const refusal = await beforeDeadline(this.outbound.refusal(url), deadline);
      if (refusal) {
        return { ok: false, statusCode: null, error: `url ${refusal}` };
      }
      const response = await this.outbound.fetchFor(deadline)(url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Console-Webhooks/1',
          'Console-Event-Id': eventId,
          'Console-Signature': signatureHeader(secret, payload, Math.floor(Date.now() / 1000)),
        },
        body: payload,
      });
      const excerpt = await readExcerpt(response);
      const ok = response.status >= 200 && response.status < 300;
      return {
        ok,
        statusCode: response.status,
        error: ok
          ? null
          : `HTTP ${response.status}${excerpt ? `: ${excerpt}` : ''}`.slice(0, ERROR_LENGTH),
      };
    } catch (error) {
      return { ok: false, statusCode: null, error: describe(error, deadline) };
    }
  }
}

/** `work`, or a rejection once `deadline` passes (the work itself cannot be cancelled). */
function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(deadline.reason as Error);
    deadline.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', onAbort));
  });
}

/** The start of the body, then the connection is let go without reading the rest. */
async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) {
    return '';
  }
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body cut off or too slow says nothing more about the outcome than the status did.
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks)
    .subarray(0, RESPONSE_READ_BYTES)
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

function describe(error: unknown, deadline: AbortSignal): string {
  if (deadline.aborted) {
    return 'timed out';
  }
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return message.slice(0, ERROR_LENGTH);
}
