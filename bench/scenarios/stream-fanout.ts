import { ScenarioLine, scenarioLine } from '../lib/report';
import { TARGETS } from '../targets';
import { EmbeddedContext } from './context';
import { measureFanout } from './fanout';

/** Scenario 5: many subscribers on one conversation of one instance; delivery latency. */
export async function streamFanout(ctx: EmbeddedContext): Promise<ScenarioLine> {
  const target = { origin: ctx.app.origin, key: ctx.api.key, agentId: ctx.seed.agentId };
  const figures = await measureFanout({
    name: 'stream-fanout',
    streams: target,
    posts: target,
    conversationId: ctx.seed.fanoutConversationId,
    subscribers: ctx.sizes.fanoutSubscribers,
    messages: ctx.sizes.fanoutMessages,
    intervalMs: ctx.sizes.postIntervalMs,
    openBatch: ctx.sizes.openBatch,
  });
  return scenarioLine(
    'stream-fanout',
    { mode: ctx.sizes.mode, ...figures },
    TARGETS['stream-fanout'],
  );
}
