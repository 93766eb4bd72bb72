import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { StartupError } from '@/config/startup-error';
import { AppConfig } from '@/config/app-config';
import { MetricsService } from './metrics.service';

const PORT_PROBLEMS = new Set(['EADDRINUSE', 'EACCES']);

/**
 * Prometheus text on `GET /metrics` of METRICS_PORT, a port of its own so that it is never exposed
 * where the API is, on METRICS_HOST (loopback unless told otherwise: the series describe the
 * service to whoever can reach them). Off when METRICS_PORT is unset.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metrics.port;
    const { registry } = this.metrics;
    if (port === undefined || !registry) {
      return;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('prom-client') as typeof import('prom-client')).collectDefaultMetrics({
      register: registry,
    });
    this.server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
        (error: Error) => {
          this.logger.warn({ err: error }, 'Could not collect the metrics');
          res.writeHead(500).end();
        },
      );
    });
    const { host } = this.config.metrics;
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', (error: NodeJS.ErrnoException) => {
        // A port taken or privileged is the port's fault; an address not found or not ours, the host's.
        const setting = PORT_PROBLEMS.has(error.code ?? '') ? 'METRICS_PORT' : 'METRICS_HOST';
        reject(
          new StartupError(
            `${setting}: cannot listen on ${host}:${port} (${error.code ?? error.message})`,
          ),
        );
      });
      this.server!.listen(port, host, resolve);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }
}
