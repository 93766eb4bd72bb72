import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const INVALID_TRACE_ID = '0'.repeat(32);

/**
 * The W3C trace id of a request: the one of the span recording it when tracing is on (which
 * continues the caller's trace), else the one of a well-formed `traceparent` header.
 */
export function traceIdOf(req: IncomingMessage): string | undefined {
  const span = trace.getSpan(context.active());
  if (span && isSpanContextValid(span.spanContext())) {
    return span.spanContext().traceId;
  }
  const header = req.headers.traceparent;
  const match = typeof header === 'string' ? TRACEPARENT.exec(header.trim()) : null;
  return match && match[1] !== INVALID_TRACE_ID ? match[1] : undefined;
}
