import { Injectable } from '@nestjs/common';
import { MetricsService } from '@/common/metrics/metrics.service';
import { KnowledgeFetchRepository } from './knowledge-fetch.repository';

/** Knowledge pages waiting to be fetched. */
@Injectable()
export class KnowledgeFetchMetrics {
  constructor(queue: KnowledgeFetchRepository, metrics: MetricsService) {
    metrics.gauge(
      'console_knowledge_fetch_queue_depth',
      'URL knowledge items waiting for a fetch (all instances)',
      () => queue.waiting(),
    );
  }
}
