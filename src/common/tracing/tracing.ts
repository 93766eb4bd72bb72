import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { onTracingShutdown } from './tracing-shutdown';

const PROBES = /^\/(healthz|readyz)(\?|$)/;

/**
 * Records spans for requests (http, express), PostgreSQL queries (pg) and outbound calls (see
 * outbound-http.ts), and sends them to `<endpoint>/v1/traces` as OTLP/HTTP. Must run before
 * `http`, `express` and `pg` are first required, which is why main.ts loads it first. Only traces
 * leave the process: metrics are scraped (METRICS_PORT) and logs go to stdout.
 */
export function startTracing(endpoint: string, serviceName: string): void {
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => PROBES.test(req.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  onTracingShutdown(() => sdk.shutdown());
}
