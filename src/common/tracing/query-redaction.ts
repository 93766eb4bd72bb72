import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace-node';

export const REDACTED = 'REDACTED';

/** Attributes that hold a whole URL or its query, in the stable and the older conventions. */
const URL_ATTRIBUTES = ['url.full', 'url.query', 'http.url', 'http.target'] as const;

/** `name=REDACTED` for each parameter: its name says what was asked, its value may be a secret. */
function redactedQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => (pair === '' ? pair : `${pair.split('=')[0]}=${REDACTED}`))
    .join('&');
}

/** A URL, path or bare query (`url.query` has no `?`) with every query value redacted. */
export function redactQuery(value: string, bareQuery: boolean): string {
  if (bareQuery) {
    return redactedQuery(value);
  }
  const at = value.indexOf('?');
  if (at === -1) {
    return value;
  }
  const hash = value.indexOf('#', at);
  const query = value.slice(at + 1, hash === -1 ? undefined : hash);
  return `${value.slice(0, at)}?${redactedQuery(query)}`;
}

/**
 * Redacts every query value of a span's URL attributes as the span ends, whichever
 * instrumentation set them: a stream's `ticket` (or any secret a client put in a query) never
 * leaves the process. The fragment goes too: it is never sent to a server anyway.
 */
export class QueryRedaction implements SpanProcessor {
  onStart(): void {}

  onEnding(span: Span): void {
    for (const name of URL_ATTRIBUTES) {
      const value = span.attributes[name];
      if (typeof value === 'string') {
        span.setAttribute(name, redactQuery(value, name === 'url.query'));
      }
    }
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
