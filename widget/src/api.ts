import { isWidgetMessage, StreamTicket, WidgetConfig, WidgetMessage, WidgetSession } from './types';

/** A failed call: `status` 0 when the network (or CORS) failed before any answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** From `Retry-After`, in milliseconds. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Success bodies are `{ message, data, meta? }` envelopes; a bare body is taken as it is. */
export function unwrap(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && 'data' in body) {
    return body.data;
  }
  return body;
}

export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') {
    return null;
  }
  const seconds = Number(value);
  if (Number.isFinite(seconds)) {
    return Math.max(0, seconds * 1000);
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The short line the visitor sees for a failure. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) {
    return 'Something went wrong.';
  }
  switch (error.status) {
    case 0:
      return 'Cannot reach the chat right now.';
    case 403:
      return 'Chat is not available on this site.';
    case 429: {
      const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000));
      return `Too many messages. Try again in ${seconds} s.`;
    }
    case 503:
      return 'Chat is busy. Try again shortly.';
    default:
      return error.status >= 500 ? 'Chat is unavailable. Try again shortly.' : error.message;
  }
}

/** The public widget API (docs/api.md §7a), authenticated by the publishable key. */
export class WidgetApi {
  private readonly root: string;

  constructor(
    base: string,
    private readonly key: string,
    private readonly fetchImpl: FetchLike = (url, init) => fetch(url, init),
  ) {
    this.root = `${base.replace(/\/+$/, '')}/api/v1/widget`;
  }

  async config(): Promise<WidgetConfig> {
    const data = (await this.request('GET', '/config')) as Partial<WidgetConfig> | null;
    return {
      title: typeof data?.title === 'string' && data.title !== '' ? data.title : 'Chat',
      greeting: typeof data?.greeting === 'string' ? data.greeting : null,
      color: typeof data?.color === 'string' ? data.color : null,
    };
  }

  async session(visitorToken: string | null): Promise<WidgetSession> {
    const body = visitorToken ? { visitor_token: visitorToken } : {};
    const data = (await this.request('POST', '/sessions', body)) as Partial<WidgetSession> | null;
    if (typeof data?.visitor_token !== 'string') {
      throw new ApiError(500, 'No visitor token in the session answer.');
    }
    return { visitor_token: data.visitor_token, conversation_id: data.conversation_id ?? null };
  }

  async send(visitorToken: string, message: string): Promise<WidgetMessage> {
    const data = await this.request('POST', '/messages', { visitor_token: visitorToken, message });
    if (!isWidgetMessage(data)) {
      throw new ApiError(500, 'Unexpected answer to a sent message.');
    }
    return data;
  }

  /** The visitor's messages after `after` (all of them without it), following pages if any. */
  async messages(visitorToken: string, after: string | null): Promise<WidgetMessage[]> {
    const query = new URLSearchParams({ visitor_token: visitorToken });
    if (after) {
      query.set('after', after);
    }
    const all: WidgetMessage[] = [];
    for (let page = 1; page <= 50; page += 1) {
      if (page > 1) {
        query.set('page', String(page));
      }
      const body = await this.request('GET', `/messages?${query.toString()}`, undefined, false);
      const data = unwrap(body);
      if (Array.isArray(data)) {
        all.push(...data.filter(isWidgetMessage));
      }
      const pages = (body as { meta?: { page_count?: unknown } } | null)?.meta?.page_count;
      if (typeof pages !== 'number' || page >= pages) {
        break;
      }
    }
    return all;
  }

  async streamTicket(visitorToken: string): Promise<StreamTicket> {
    const data = (await this.request('POST', '/stream-ticket', {
      visitor_token: visitorToken,
    })) as Partial<StreamTicket> | null;
    if (typeof data?.ticket !== 'string') {
      throw new ApiError(500, 'No ticket in the answer.');
    }
    return { ticket: data.ticket, expires_in: data.expires_in };
  }

  streamUrl(ticket: string, after: string | null): string {
    const query = new URLSearchParams({ ticket });
    if (after) {
      query.set('after', after);
    }
    return `${this.root}/stream?${query.toString()}`;
  }

  private async request(
    method: string,
    path: string,
    body?: unknown,
    unwrapData = true,
  ): Promise<unknown> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.key}` };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.root}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        mode: 'cors',
        credentials: 'omit',
      });
    } catch {
      throw new ApiError(0, 'Network error.');
    }
    const parsed: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const text = (parsed as { message?: unknown } | null)?.message;
      throw new ApiError(
        response.status,
        typeof text === 'string' ? text : `Request failed (${response.status}).`,
        parseRetryAfter(response.headers.get('Retry-After')),
      );
    }
    return unwrapData ? unwrap(parsed) : parsed;
  }
}
