import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('console-api.outbound');

/**
 * Runs an outbound HTTP call in a client span (when tracing is on; otherwise the API's no-op span
 * costs nothing and the request is left as it was), carrying the trace on to the callee in
 * `traceparent`. The span names the host and path, never the query string.
 */
export function withClientSpan(
  url: URL,
  init: RequestInit,
  call: (init: RequestInit) => Promise<Response>,
): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  return tracer.startActiveSpan(
    method,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': method,
        'server.address': url.hostname,
        'url.full': `${url.origin}${url.pathname}`,
      },
    },
    async (span) => {
      let sent = init;
      if (span.isRecording()) {
        const headers: Record<string, string> = Object.fromEntries(new Headers(init.headers));
        propagation.inject(context.active(), headers);
        sent = { ...init, headers };
      }
      try {
        const response = await call(sent);
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 500) {
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return response;
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
