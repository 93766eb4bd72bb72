import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const REQUEST_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The instance's metrics, in one registry of its own (not prom-client's global one: a test process
 * runs many applications). Modules register what they measure here; METRICS_PORT serves it.
 *
 *   metrics.gauge('console_webhook_queue_depth', 'Deliveries waiting', () => repo.countWaiting());
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly requestDuration = new Histogram({
    name: 'console_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS_S,
    registers: [this.registry],
  });

  /**
   * A gauge read when the metrics are scraped: `read` may query a database. A failing read leaves
   * the gauge out of that scrape rather than failing it.
   */
  gauge(name: string, help: string, read: () => number | Promise<number>): Gauge {
    const known = this.registry.getSingleMetric(name);
    if (known) {
      return known as Gauge;
    }
    return new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.reset();
        const value = await Promise.resolve()
          .then(read)
          .catch(() => undefined);
        if (value !== undefined && Number.isFinite(value)) {
          this.set(value);
        }
      },
    });
  }

  /** A counter the caller increments, e.g. `metrics.counter(…).inc({ reason })`. */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    const known = this.registry.getSingleMetric(name);
    if (known) {
      return known as Counter<L>;
    }
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** Records each response's duration under the route that served it (its pattern, never the path). */
  requestTimer() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const stop = this.requestDuration.startTimer();
      res.once('finish', () => {
        const route = (req.route as { path?: unknown } | undefined)?.path;
        stop({
          method: req.method,
          route: typeof route === 'string' ? route : 'unmatched',
          status: String(res.statusCode),
        });
      });
      next();
    };
  }
}
