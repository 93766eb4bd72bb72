import { ApiClient } from '../../test/support/api-client';
import { clusterEnv } from '../../test/support/cluster-env';
import { AppInstance, startApp } from '../lib/app-instance';
import { onCleanup } from '../lib/cleanup';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { seedAgent, seedConversations, seedWorkflows } from '../lib/seed';
import { round } from '../lib/stats';
import { TARGETS } from '../targets';
import { measureFanout } from './fanout';

/**
 * Scenario 6 (--cluster): two instances on a throwaway PostgreSQL database and a Redis prefix of
 * the run's own; subscribers on instance B, messages posted to instance A.
 */
export async function clusterDelivery(sizes: Sizes, workDir: string): Promise<ScenarioLine> {
  const cluster = await clusterEnv({ LOG_LEVEL: 'warn' });
  const cleanup = onCleanup('drop the PostgreSQL database and the Redis keys', cluster.cleanup);
  const { env, key } = cluster;
  const instances: AppInstance[] = [];
  try {
    progress('cluster-delivery: starting instances A and B on PostgreSQL + Redis');
    const a = await startApp('instance-a', env, workDir);
    instances.push(a);
    const b = await startApp('instance-b', env, workDir);
    instances.push(b);
    const api = new ApiClient(a.origin, key);
    const [workflowId] = await seedWorkflows(api, 1);
    const agentId = await seedAgent(api, workflowId);
    const [conversationId] = await seedConversations(api, agentId, 1, 'cluster');
    const figures = await measureFanout({
      name: 'cluster-delivery',
      streams: { origin: b.origin, key, agentId },
      posts: { origin: a.origin, key, agentId },
      conversationId,
      subscribers: sizes.clusterSubscribers,
      messages: sizes.clusterMessages,
      intervalMs: sizes.postIntervalMs,
      openBatch: sizes.openBatch,
    });
    return scenarioLine(
      'cluster-delivery',
      {
        mode: sizes.mode,
        ...figures,
        note: `subscribers on B, posts to A; ${String(figures.note)}`,
        startup_ms_a: round(a.startupMs, 0),
        startup_ms_b: round(b.startupMs, 0),
      },
      TARGETS['cluster-delivery'],
    );
  } finally {
    for (const instance of instances) {
      await instance.stop();
    }
    await cleanup();
  }
}
