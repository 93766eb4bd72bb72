import {
  MAX_OUTBOUND_RESPONSE_BYTES,
  OutboundHttp,
  OutboundRefusedError,
  ResponseTooLargeError,
} from './outbound-http';

export const MAX_REDIRECTS = 5;

export type DownloadFailure =
  'refused' | 'timeout' | 'too_large' | 'too_many_redirects' | 'unreachable';

/** Why a download stopped, with the detail a person needs (the address refused, the cause). */
export class DownloadError extends Error {
  constructor(
    readonly reason: DownloadFailure,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

export interface Download {
  /** Where the body came from, after redirects. */
  url: string;
  status: number;
  statusText: string;
  contentType: string | null;
  body: Buffer;
}

function refusedBy(error: unknown): OutboundRefusedError | null {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof OutboundRefusedError) {
      return cause;
    }
  }
  return null;
}

/**
 * GETs `url` through the outbound guard, following at most MAX_REDIRECTS redirects, each target
 * checked again before it is requested; the whole download (redirects and body) ends at
 * `timeoutMs`, and a body past MAX_OUTBOUND_RESPONSE_BYTES stops it.
 */
export async function download(
  outbound: OutboundHttp,
  url: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<Download> {
  const deadline = AbortSignal.timeout(timeoutMs);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const refusal = await outbound.refusal(current);
      if (refusal) {
        throw new DownloadError('refused', new URL(current).hostname);
      }
      const response = await outbound.fetchFor(deadline)(current, { redirect: 'manual', headers });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) {
          throw new DownloadError('too_many_redirects', `more than ${MAX_REDIRECTS} redirects`);
        }
        current = new URL(location, current).toString();
        continue;
      }
      const length = Number(response.headers.get('content-length') ?? 0);
      if (length > MAX_OUTBOUND_RESPONSE_BYTES) {
        await response.body?.cancel();
        throw new DownloadError('too_large', `${length} bytes`);
      }
      return {
        url: current,
        status: response.status,
        statusText: response.statusText,
        contentType: response.headers.get('content-type'),
        body: Buffer.from(await response.arrayBuffer()),
      };
    }
  } catch (error) {
    if (error instanceof DownloadError) {
      throw error;
    }
    if (deadline.aborted) {
      throw new DownloadError('timeout', `${timeoutMs} ms`);
    }
    const refused = refusedBy(error);
    if (refused instanceof ResponseTooLargeError) {
      throw new DownloadError('too_large', refused.message);
    }
    if (refused) {
      throw new DownloadError('refused', new URL(current).hostname);
    }
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    throw new DownloadError('unreachable', cause?.code ?? cause?.message ?? String(error));
  }
}
