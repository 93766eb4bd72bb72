import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { QueryRedaction } from './query-redaction';
import { onTracingShutdown } from './tracing-shutdown';

const PROBES = /^\/(healthz|readyz)(\?|$)/;

/**
 * Records spans for requests (http, express), PostgreSQL queries (pg) and outbound calls (see
 * outbound-http.ts), and sends them to `<endpoint>/v1/traces` as OTLP/HTTP (JSON). Must run before
 * `http`, `express` and `pg` are first required, which is why main.ts loads it first. Only traces
 * leave the process: metrics are scraped (METRICS_PORT) and logs go to stdout. The tracer provider,
 * the one exporter and the instrumentations are set up by hand rather than through
 * @opentelemetry/sdk-node, which would install every exporter (gRPC, Zipkin, Prometheus…).
 */
export function startTracing(endpoint: string, serviceName: string): void {
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': serviceName })),
    spanProcessors: [
      // Every processor's onEnding runs before any onEnd: the exporter sees redacted attributes only.
      new QueryRedaction(),
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
      ),
    ],
  });
  // The global tracer provider, AsyncLocalStorage context and W3C trace context propagation.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => PROBES.test(req.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  onTracingShutdown(() => provider.shutdown());
}
