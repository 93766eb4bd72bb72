import { ApiClient } from '../../test/support/api-client';
import { AppInstance } from '../lib/app-instance';
import { Sizes } from '../lib/options';

/** Requests per second of the two baselines, measured earlier in the same run. */
export interface Floors {
  node: number | null;
  nest: number | null;
}

/** What the embedded (SQLite) scenarios work on, seeded through the API. */
export interface EmbeddedSeed {
  workflowId: string;
  agentId: string;
  /** The message load is spread over these; the stream capacity test opens streams on them. */
  postConversationIds: string[];
  warmupConversationIds: string[];
  fanoutConversationId: string;
}

export interface EmbeddedContext {
  sizes: Sizes;
  app: AppInstance;
  api: ApiClient;
  seed: EmbeddedSeed;
  floors: Floors;
}
