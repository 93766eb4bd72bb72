import { Observable } from 'rxjs';

/**
 * What a stream ticket grants: one stream of one conversation, on behalf of one API key (staff),
 * or of one web-chat visitor (the customer's view, `visitorId`, no key).
 */
export interface StreamGrant {
  teamId: string;
  agentId: string;
  conversationId: string;
  keyId: string | null;
  visitorId?: string;
}

/** Whose open streams a grant counts against: its API key, or its visitor. */
export function streamSubject(grant: StreamGrant): string {
  return grant.keyId ?? `visitor:${grant.visitorId}`;
}

/** Single-use stream tickets, stored by hash. */
export interface TicketStore {
  save(ticketHash: string, grant: StreamGrant, ttlSeconds: number): Promise<void>;
  /** Returns the grant and forgets it, atomically: of concurrent callers, one gets it. */
  take(ticketHash: string): Promise<StreamGrant | null>;
}

/** Open streams per subject (the API key that issued the ticket). */
export interface StreamSlots {
  /** Takes a slot if the subject holds fewer than `limit`; returns a release function, or null. */
  acquire(subject: string, limit: number): Promise<(() => void) | null>;
  /** Slots held by `subject`; with no subject, the number of subjects holding any. */
  held(subject?: string): Promise<number>;
}

/** A message as it travels between instances: what the stream shows, plus its position. */
export interface BusMessage {
  seq: number;
  /** The StreamMessageEvent, sent as the frame's data. */
  event: { id: string } & Record<string, unknown>;
}

/**
 * A piece of a reply the model is still writing (docs/api.md §5b): shown live to the streams
 * watching at that moment, never stored, never replayed; the finished reply follows as a message.
 */
export interface BusDelta {
  delta: { conversation_id: string; reply_to: string; index: number; delta: string };
}

/** What travels on the bus: stored messages, and pieces of replies being written. */
export type BusItem = BusMessage | BusDelta;

/**
 * Said to watchers when messages may have been missed (the connection to the other instances was
 * lost for a while): they re-read from the database what came after the last message they have.
 */
export const RESYNC = 'resync';

/** Fan-out of new messages (and reply pieces) to the streams that watch their conversation. */
export interface MessageBus {
  publish(conversationId: string, message: BusItem): void;
  /** Hot: only messages published after subscribing. */
  watch(conversationId: string): Observable<BusItem | typeof RESYNC>;
  /** Conversations with at least one local watcher. */
  watchedConversations(): number;
}

/** Small notices every instance must hear, such as a revoked API key. */
export interface ClusterEvents {
  emit(topic: string, payload: string): Promise<void>;
  on(topic: string, handler: (payload: string) => void): void;
}

export const TICKET_STORE = Symbol('TICKET_STORE');
export const CLUSTER_EVENTS = Symbol('CLUSTER_EVENTS');
export const STREAM_SLOTS = Symbol('STREAM_SLOTS');
export const MESSAGE_BUS = Symbol('MESSAGE_BUS');
