import { Injectable } from '@nestjs/common';
import { CounterLike, HistogramLike, MetricsService } from '@/common/metrics/metrics.service';

const DURATION_BUCKETS_S = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/** Model calls by model: how long they took, the tokens they used, how many failed. */
@Injectable()
export class ModelCallMetrics {
  private readonly duration: HistogramLike<'model'>;
  private readonly promptTokens: CounterLike<'model'>;
  private readonly completionTokens: CounterLike<'model'>;
  private readonly failures: CounterLike<'model'>;

  constructor(metrics: MetricsService) {
    this.duration = metrics.histogram(
      'console_model_call_duration_seconds',
      'Time a model call took, ok or failed, by model',
      ['model'],
      DURATION_BUCKETS_S,
    );
    this.promptTokens = metrics.counter(
      'console_model_prompt_tokens_total',
      'Prompt tokens the provider reported, by model',
      ['model'],
    );
    this.completionTokens = metrics.counter(
      'console_model_completion_tokens_total',
      'Completion tokens the provider reported, by model',
      ['model'],
    );
    this.failures = metrics.counter(
      'console_model_call_failures_total',
      'Model calls that failed (an error, a timeout, no answer), by model',
      ['model'],
    );
  }

  observe(call: {
    model: string;
    latencyMs: number;
    promptTokens: number;
    completionTokens: number;
    ok: boolean;
  }): void {
    const labels = { model: call.model };
    this.duration.observe(labels, call.latencyMs / 1000);
    this.promptTokens.inc(labels, call.promptTokens);
    this.completionTokens.inc(labels, call.completionTokens);
    // Incremented by 0 on success too, so that a model's failure series exists from its first call.
    this.failures.inc(labels, call.ok ? 0 : 1);
  }
}
