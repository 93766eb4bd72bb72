import { reportStartupFailure } from '@/config/startup-error';
import { loadEnvFile } from './config/env-file';

/**
 * First thing main.ts loads: `.env` (so that every later read of the environment sees it), then
 * tracing when an OTLP endpoint is set, before the modules it instruments are required. The
 * OpenTelemetry SDK takes about a second to load, so it is loaded only then.
 */
try {
  loadEnvFile();
  const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint) {
    type Tracing = typeof import('./common/tracing/tracing');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const tracing = require('./common/tracing/tracing') as Tracing;
    tracing.startTracing(endpoint, process.env.OTEL_SERVICE_NAME || 'console-api');
  }
} catch (error) {
  reportStartupFailure(error);
}
