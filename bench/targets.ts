import { Target } from './lib/report';

const atLeast = (metric: string, bound: number): Target => ({ metric, op: '>=', bound });
const atMost = (metric: string, bound: number): Target => ({ metric, op: '<=', bound });

/**
 * The tracker's targets, each a ratio or a bound that the suite itself measures. They apply to
 * the default placement (one instance on SQLite); PostgreSQL and cluster lines carry none.
 */
export const TARGETS: Record<string, Target[]> = {
  'floor-node': [],
  'floor-nest': [],
  'peer-nest': [],
  startup: [atMost('startup_ms', 1_500)],
  'get-workflow': [
    atLeast('ratio_vs_floor_nest', 0.6),
    atLeast('ratio_vs_peer', 1.5),
    atMost('p99_ms', 20),
  ],
  'list-workflows': [atLeast('ratio_vs_floor_nest', 0.4)],
  'post-messages': [atLeast('messages_per_s', 1_500)],
  'stream-capacity': [atMost('rss_mib_at_10k_streams', 1_024)],
  'stream-fanout': [atMost('p99_ms', 100)],
  'stream-stalled-replay': [atMost('rss_mib_per_stream', 2)],
  'cluster-delivery': [atMost('p99_ms', 150)],
  'rule-matching': [atMost('match_ms_per_message', 5)],
  answers: [
    atLeast('answer_rate', 0.9),
    atMost('false_answer_rate', 0.1),
    atMost('retrieval_p99_ms', 10),
  ],
  'webhook-delivery': [],
  'webhook-delivery-cluster': [],
  'webhook-isolation': [atMost('p99_ms', 5_000)],
  'reply-latency': [],
  'knowledge-isolation': [atMost('p99_ms', 100)],
  'inbox-list': [atMost('p99_ms', 50)],
  widget: [atMost('p99_ms', 100), atMost('widget_js_gzip_kib', 40)],
  whatsapp: [],
};
