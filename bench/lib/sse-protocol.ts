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

/** A web chat's public API (docs/api.md §7a), as a page of `pageOrigin` reaches it. */
export interface WidgetTarget {
  origin: string;
  /** The publishable key (pk_…). */
  publishableKey: string;
  pageOrigin: string;
}

/**
 * Visitors: a session each, a first message (which makes the conversation), its reply, then a
 * stream ticket and the widget stream, held open.
 */
export interface WidgetOpenCommand {
  type: 'widget-open';
  target: WidgetTarget;
  visitors: number;
  /** The first message, answered by a rule. */
  message: string;
  batchSize: number;
}

export interface WidgetOpenedAnswer {
  type: 'widget-opened';
  opened: number;
  failed: number;
  elapsed_ms: number;
  errors: string[];
}

/**
 * Rounds in which every visitor sends one message: spread evenly over `spreadMs` (visitor i at
 * i × spreadMs / visitors into the round), or all at once when `spreadMs` is 0.
 */
export interface WidgetPostCommand {
  type: 'widget-post';
  target: WidgetTarget;
  rounds: number;
  spreadMs: number;
  message: string;
  settleTimeoutMs: number;
}

export interface WidgetDeliveredAnswer {
  type: 'widget-delivered';
  visitors: number;
  posted: number;
  replied: number;
  /** The reply's frame parsed on the visitor's stream − moment just before its POST, in ms. */
  latency: Summary;
  post_latency: Summary;
  errors: string[];
}

export type SseCommand =
  OpenCommand | PostCommand | CloseCommand | WidgetOpenCommand | WidgetPostCommand;
export type SseAnswer =
  OpenedAnswer | DeliveredAnswer | ClosedAnswer | WidgetOpenedAnswer | WidgetDeliveredAnswer;
