import { Injectable } from '@nestjs/common';
import { MetricsService } from '@/common/metrics/metrics.service';
import { PendingRepliesRepository } from './pending-replies.repository';

/** The replies user messages wait for: how many, and how long the oldest has waited. */
@Injectable()
export class ReplyQueueMetrics {
  constructor(pending: PendingRepliesRepository, metrics: MetricsService) {
    metrics.gauge(
      'console_reply_queue_depth',
      'Replies waiting to be produced (all instances)',
      async () => (await pending.backlog()).waiting,
    );
    metrics.gauge(
      'console_reply_queue_lag_seconds',
      'How long the oldest waiting reply has waited, seconds (0 when none waits)',
      async () => {
        const { oldestAt } = await pending.backlog();
        return oldestAt ? Math.max(0, (Date.now() - oldestAt.getTime()) / 1000) : 0;
      },
    );
  }
}
