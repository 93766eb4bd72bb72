export const SCENARIOS = [
  'get-workflow',
  'list-workflows',
  'post-messages',
  'stream-capacity',
  'stream-fanout',
  'stream-stalled-replay',
  'cluster-delivery',
  'rule-matching',
  'answers',
  'webhook-delivery',
  'webhook-delivery-cluster',
  'webhook-isolation',
  'reply-latency',
  'knowledge-isolation',
  'inbox-list',
  'widget',
  'whatsapp',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
const CLUSTER_SCENARIOS: ScenarioName[] = ['cluster-delivery', 'webhook-delivery-cluster'];

export interface Sizes {
  mode: 'quick' | 'full';
  /** Fresh starts timed for the start-up figure. */
  startups: number;
  connections: number;
  durationS: number;
  warmupS: number;
  /**
   * The load scenarios reported against baselines run this many rounds of `roundS` seconds each,
   * alternating with a round of each baseline (one before the first and after every one).
   */
  rounds: number;
  roundS: number;
  workflows: number;
  /** Conversations the message load is spread over (one conversation serialises its writes). */
  postConversations: number;
  capacityStreams: number;
  /** Streams (each with its own ticket request) opened concurrently. */
  openBatch: number;
  fanoutSubscribers: number;
  /** Replay streams that never read, and the length of the conversation they replay. */
  stalledStreams: number;
  stalledReplayMessages: number;
  fanoutMessages: number;
  postIntervalMs: number;
  clusterSubscribers: number;
  clusterMessages: number;
  /** Timed matches of each message against each workflow. */
  matchRuns: number;
  /** Events posted (and delivered to one webhook endpoint) by the webhook scenarios. */
  webhookEvents: number;
  /** Replies timed with the stub model, with and without a tool call. */
  replySamples: number;
  /** Web-chat visitors holding a widget stream, and the rounds in which all of them send at once. */
  widgetVisitors: number;
  widgetRounds: number;
  /** WhatsApp customers whose notification → reply sent is timed (paced, then all at once). */
  whatsappCustomers: number;
}

const FULL: Sizes = {
  mode: 'full',
  startups: 5,
  connections: 50,
  durationS: 10,
  warmupS: 3,
  rounds: 5,
  roundS: 2,
  workflows: 30,
  postConversations: 50,
  capacityStreams: 10_000,
  openBatch: 200,
  fanoutSubscribers: 1_000,
  fanoutMessages: 100,
  stalledStreams: 25,
  stalledReplayMessages: 3_000,
  postIntervalMs: 100,
  clusterSubscribers: 1_000,
  clusterMessages: 100,
  matchRuns: 100,
  webhookEvents: 2_000,
  replySamples: 200,
  widgetVisitors: 200,
  widgetRounds: 5,
  whatsappCustomers: 1_000,
};

const QUICK: Sizes = {
  ...FULL,
  mode: 'quick',
  startups: 3,
  durationS: 5,
  warmupS: 1,
  rounds: 3,
  capacityStreams: 2_000,
  fanoutSubscribers: 200,
  fanoutMessages: 20,
  stalledReplayMessages: 1_000,
  clusterSubscribers: 200,
  clusterMessages: 20,
  matchRuns: 30,
  webhookEvents: 500,
  replySamples: 50,
  widgetRounds: 2,
  whatsappCustomers: 200,
};

export const DATABASES = ['sqlite', 'postgres'] as const;
export type DatabaseKind = (typeof DATABASES)[number];

export interface BenchOptions {
  sizes: Sizes;
  scenarios: Set<ScenarioName>;
  /** Where the load scenarios run: SQLite (one instance), PostgreSQL (one instance, then two with Redis). */
  databases: DatabaseKind[];
}

const USAGE =
  'usage: npm run bench -- [--quick] [--cluster] [--database=sqlite,postgres] [--only=<scenario>,…]\n' +
  `scenarios: ${SCENARIOS.join(', ')} (cluster-delivery, webhook-delivery-cluster need --cluster)\n` +
  'databases: sqlite (default), postgres (get-workflow, list-workflows, post-messages, inbox-list)';

export function parseOptions(args: string[]): BenchOptions {
  let quick = false;
  let cluster = false;
  let only: string[] | undefined;
  let databases: string[] = ['sqlite'];
  for (const arg of args) {
    if (arg === '--quick') {
      quick = true;
    } else if (arg === '--cluster') {
      cluster = true;
    } else if (arg.startsWith('--database=')) {
      databases = arg.slice('--database='.length).split(',');
    } else if (arg.startsWith('--only=')) {
      only = arg.slice('--only='.length).split(',');
    } else {
      throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  const unknown = only?.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown && unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(', ')}\n${USAGE}`);
  }
  const unknownDatabases = databases.filter(
    (name) => !(DATABASES as readonly string[]).includes(name),
  );
  if (unknownDatabases.length > 0 || databases.length === 0) {
    throw new Error(`unknown database ${unknownDatabases.join(', ')}\n${USAGE}`);
  }
  const scenarios = new Set<ScenarioName>(
    SCENARIOS.filter(
      (name) =>
        (only === undefined || only.includes(name)) &&
        (!CLUSTER_SCENARIOS.includes(name) || cluster),
    ),
  );
  return {
    sizes: quick ? QUICK : FULL,
    scenarios,
    databases: DATABASES.filter((name) => databases.includes(name)),
  };
}
