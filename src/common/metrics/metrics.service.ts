import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppConfig } from '@/config/app-config';

const REQUEST_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type PromClient = typeof import('prom-client');

/** What callers of `counter()` get: with metrics off, increments go nowhere. */
export type CounterLike<L extends string = string> = Pick<Counter<L>, 'inc'>;

/** What callers of `histogram()` get: with metrics off, observations go nowhere. */
export type HistogramLike<L extends string = string> = Pick<Histogram<L>, 'observe'>;

/**
 * The instance's metrics, in one registry of its own (not prom-client's global one: a test process
 * runs many applications). Modules register what they measure here; METRICS_PORT serves it. With
 * METRICS_PORT unset nothing is measured, and prom-client (slow to load) is never loaded.
 *
 *   metrics.gauge('console_webhook_queue_depth', 'Deliveries waiting', () => repo.countWaiting());
 */
@Injectable()
export class MetricsService {
  readonly registry: Registry | null = null;
  private readonly client: PromClient | null = null;
  private readonly requestDuration: Histogram<'method' | 'route' | 'status'> | null = null;

  constructor(config: AppConfig) {
    if (config.metrics.port === undefined) {
      return;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.client = require('prom-client') as PromClient;
    this.registry = new this.client.Registry();
    this.requestDuration = new this.client.Histogram({
      name: 'console_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: REQUEST_BUCKETS_S,
      registers: [this.registry],
    });
  }

  /**
   * A gauge read when the metrics are scraped: `read` may query a database. A failing read leaves
   * the gauge out of that scrape rather than failing it.
   */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    if (!this.client || !this.registry || this.registry.getSingleMetric(name)) {
      return;
    }
    new this.client.Gauge({
      name,
      help,
      registers: [this.registry],
      async collect(this: Gauge) {
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
  counter<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
  ): CounterLike<L> {
    if (!this.client || !this.registry) {
      return { inc: () => undefined };
    }
    const known = this.registry.getSingleMetric(name);
    if (known) {
      return known as Counter<L>;
    }
    return new this.client.Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** A histogram the caller observes, e.g. `metrics.histogram(…).observe({ model }, seconds)`. */
  histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): HistogramLike<L> {
    if (!this.client || !this.registry) {
      return { observe: () => undefined };
    }
    const known = this.registry.getSingleMetric(name);
    if (known) {
      return known as Histogram<L>;
    }
    return new this.client.Histogram({
      name,
      help,
      labelNames,
      buckets,
      registers: [this.registry],
    });
  }

  /** Records each response's duration under the route that served it (its pattern, never the path). */
  requestTimer() {
    const histogram = this.requestDuration;
    return (req: Request, res: Response, next: NextFunction): void => {
      if (!histogram) {
        next();
        return;
      }
      const stop = histogram.startTimer();
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
