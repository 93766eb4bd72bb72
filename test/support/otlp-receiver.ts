import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CAPTURE_DIR_VARIABLE, recordSpanExport } from './log-capture';

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

export interface OtlpReceiver {
  url: string;
  spans: OtlpSpan[];
  /** Every export as it was sent (the exporter's JSON), for looking through whole. */
  exports: string[];
  close(): Promise<void>;
}

/**
 * An OTLP/HTTP collector on 127.0.0.1 that keeps the spans it is sent (the JSON encoding of
 * @opentelemetry/exporter-trace-otlp-http). Inside a jest run each export also joins the run's
 * secrets scan, like a log line.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: OtlpSpan[] = [];
  const exports: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        exports.push(body);
        if (process.env[CAPTURE_DIR_VARIABLE]) {
          recordSpanExport(body);
        }
        const exported = JSON.parse(body) as {
          resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
        };
        for (const resource of exported.resourceSpans) {
          for (const scope of resource.scopeSpans) {
            spans.push(...scope.spans);
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The value of one attribute of `span`, whatever its type. */
export function spanAttribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((attribute) => attribute.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}
