import { OutboundHttp } from '@/common/outbound/outbound-http';
import { describeError } from '../mcp/mcp-client';

/** The most of an answer an action reads: more is refused rather than cut, JSON cut is not JSON. */
const MAX_ACTION_RESPONSE_BYTES = 1024 * 1024;
const SHORT_BODY_CHARS = 200;

export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Values sent that must never show in a failure (credentials). */
  secrets: string[];
}

export type HttpOutcome =
  | { kind: 'answered'; status: number; text: string; location: string | null }
  /** Refused by the address guard, no connection, no answer in time, or a broken answer. */
  | { kind: 'failed'; reason: string };

class TooLargeError extends Error {}

/**
 * One HTTP call of an action, through the outbound guard: no redirect is followed (its target
 * would not have been checked as the call's URL was), the answer is read up to
 * MAX_ACTION_RESPONSE_BYTES, and every failure is an outcome rather than an exception. The
 * credentials sent never appear in a failure's reason.
 */
export async function httpCall(outbound: OutboundHttp, call: HttpCall): Promise<HttpOutcome> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), call.timeoutMs);
  try {
    const refusal = await outbound.refusal(call.url);
    if (refusal) {
      return { kind: 'failed', reason: `its URL ${refusal}` };
    }
    const response = await outbound.fetchFor(deadline.signal)(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      redirect: 'manual',
    });
    const text = await readCapped(response, MAX_ACTION_RESPONSE_BYTES);
    return {
      kind: 'answered',
      status: response.status,
      text,
      location: response.headers.get('location'),
    };
  } catch (error) {
    if (deadline.signal.aborted) {
      return { kind: 'failed', reason: `did not answer within ${call.timeoutMs / 1000} s` };
    }
    const reason =
      error instanceof TooLargeError
        ? error.message
        : `could not be reached (${describeError(error)})`;
    return { kind: 'failed', reason: masked(reason, call.secrets) };
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) {
    return '';
  }
  const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new TooLargeError(`answered more than ${maxBytes / 1024} KB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `text` with each of `secrets` replaced (also without a scheme such as `Bearer `). */
export function masked(text: string, secrets: string[]): string {
  const credentials = secrets
    .flatMap((value) => [value, value.replace(/^\S+\s+/, '')])
    .filter((credential) => credential.length > 0)
    .sort((a, b) => b.length - a.length);
  return credentials.reduce((out, credential) => out.split(credential).join('[redacted]'), text);
}

/** The start of an answer's body on one line, for an error a person reads. */
export function shortBody(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHORT_BODY_CHARS ? `${line.slice(0, SHORT_BODY_CHARS)}…` : line;
}

/** The body as JSON when it is JSON, else the text. */
export function parsedBody(text: string): unknown {
  if (text.trim() === '') {
    return null;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
