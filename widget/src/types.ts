/** A message as the widget API shows it to the visitor (the customer view, docs/api.md §7a). */
export interface WidgetMessage {
  id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  message: string;
  message_type: string;
  created_at: string;
  attachments?: unknown[];
  author?: { type?: string; name?: string | null } | null;
  /** Staff-only notes carry `private: true`; the customer view never sends them, and never shows them. */
  private?: boolean;
}

/** A streamed piece of a reply being written (`event: message.delta`). */
export interface WidgetDelta {
  conversation_id?: string;
  reply_to?: string;
  message_id?: string;
  index?: number;
  delta: string;
}

export interface WidgetConfig {
  title: string;
  greeting: string | null;
  color: string | null;
}

export interface WidgetSession {
  visitor_token: string;
  conversation_id: string | null;
}

export interface StreamTicket {
  ticket: string;
  expires_in?: number;
}

/** Who wrote a bubble, as the visitor sees it. */
export type Author = 'customer' | 'ai' | 'operator';

/** One bubble of the message log, in display order. */
export interface Entry {
  /** Stable across renders: the message id, or a local key for unsent and streaming bubbles. */
  key: string;
  author: Author;
  /** Shown above operator messages. */
  name: string | null;
  text: string;
  state: 'sent' | 'sending' | 'failed' | 'streaming';
}

export function isWidgetMessage(value: unknown): value is WidgetMessage {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const m = value as Record<string, unknown>;
  return (
    typeof m.id === 'string' &&
    m.id !== '' &&
    (m.role === 'user' || m.role === 'assistant') &&
    typeof m.message === 'string' &&
    typeof m.created_at === 'string'
  );
}

export function isWidgetDelta(value: unknown): value is WidgetDelta {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>).delta === 'string'
  );
}
