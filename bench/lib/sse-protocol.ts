import { Summary } from './stats';

/** Where streams are opened and messages posted: one instance of the app, one agent. */
export interface ApiTarget {
  origin: string;
  key: string;
  agentId: string;
}

export interface OpenCommand {
  type: 'open';
  target: ApiTarget;
  /** Streams are spread over these conversations in turn. */
  conversationIds: string[];
  count: number;
  /** Streams opened (ticket, then stream) concurrently. */
  batchSize: number;
}

export interface OpenedAnswer {
  type: 'opened';
  opened: number;
  failed: number;
  elapsed_ms: number;
  opens_per_s: number;
  errors: string[];
}

export interface PostCommand {
  type: 'post';
  /** The instance the messages are posted to (the streams may be on another). */
  target: ApiTarget;
  conversationId: string;
  messages: number;
  /** Least time between two posts (the next post also waits for the previous answer). */
  intervalMs: number;
  settleTimeoutMs: number;
}

export interface DeliveredAnswer {
  type: 'delivered';
  subscribers: number;
  posted: number;
  expected: number;
  delivered: number;
  /** Frame parsed by a subscriber − moment just before the POST was sent, in ms. */
  latency: Summary;
  post_latency: Summary;
  errors: string[];
}

export interface CloseCommand {
  type: 'close';
}

export interface ClosedAnswer {
  type: 'closed';
  /** Streams the server ended before the suite closed them. */
  dropped: number;
}

export type SseCommand = OpenCommand | PostCommand | CloseCommand;
export type SseAnswer = OpenedAnswer | DeliveredAnswer | ClosedAnswer;
