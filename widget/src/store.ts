import { Author, Entry, WidgetDelta, WidgetMessage } from './types';

/** How long "typing…" shows after the visitor sends when no reply comes. */
export const TYPING_TIMEOUT_MS = 60_000;
/** A streamed reply whose final message never comes is dropped this long after its last piece. */
export const DRAFT_TIMEOUT_MS = 60_000;

interface Local {
  key: string;
  text: string;
  state: 'sending' | 'failed';
}

interface Draft {
  key: string;
  /** The pieces by index; a piece seen twice (a replay) is not added twice. */
  parts: string[];
  updatedAt: number;
}

function authorOf(message: WidgetMessage): Author {
  if (message.role === 'user') {
    return 'customer';
  }
  return message.author?.type === 'operator' ? 'operator' : 'ai';
}

/** Server order: creation time, then id (ids sort by creation time too). */
function compareMessages(a: WidgetMessage, b: WidgetMessage): number {
  if (a.created_at !== b.created_at) {
    return a.created_at < b.created_at ? -1 : 1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * What the message log holds: the server's messages once each (by id, in order), the visitor's
 * messages still being sent (shown at once, replaced by the stored message when the POST answers),
 * replies being streamed, and whether "typing…" shows.
 */
export class MessageStore {
  private readonly messages = new Map<string, WidgetMessage>();
  private sorted: WidgetMessage[] | null = [];
  private locals: Local[] = [];
  private drafts: Draft[] = [];
  private typingSince: number | null = null;
  private localCount = 0;

  /** Adds a server message; false when it was already there or is not for the visitor's eyes. */
  add(message: WidgetMessage, now = Date.now()): boolean {
    if (message.private === true || message.message_type === 'note') {
      return false;
    }
    if (this.messages.has(message.id)) {
      return false;
    }
    this.messages.set(message.id, message);
    this.sorted = null;
    if (message.role === 'user') {
      // The stream can bring the visitor's message before the POST answers with its id.
      const twin = this.locals.findIndex(
        (local) => local.state === 'sending' && local.text === message.message,
      );
      if (twin >= 0) {
        this.locals.splice(twin, 1);
      }
    }
    if (message.role === 'assistant') {
      this.typingSince = null;
      // The finished reply replaces the oldest reply being streamed.
      this.drafts.shift();
    }
    this.dropStaleDrafts(now);
    return true;
  }

  /** The visitor's message, shown before the server has it; returns its local key. */
  addLocal(text: string): string {
    this.localCount += 1;
    const key = `local-${this.localCount}`;
    this.locals.push({ key, text, state: 'sending' });
    return key;
  }

  /** The POST answered with the stored message: it takes the local one's place. */
  confirmLocal(key: string, message: WidgetMessage, now = Date.now()): void {
    this.locals = this.locals.filter((local) => local.key !== key);
    this.add(message, now);
  }

  failLocal(key: string): void {
    const local = this.locals.find((candidate) => candidate.key === key);
    if (local) {
      local.state = 'failed';
    }
  }

  startTyping(now = Date.now()): void {
    this.typingSince = now;
  }

  isTyping(now = Date.now()): boolean {
    return (
      this.typingSince !== null &&
      this.drafts.length === 0 &&
      now - this.typingSince < TYPING_TIMEOUT_MS
    );
  }

  /** A piece of a reply being written: shown in a bubble of its own until the reply arrives. */
  applyDelta(delta: WidgetDelta, now = Date.now()): void {
    const key = `draft-${delta.message_id ?? delta.reply_to ?? delta.conversation_id ?? ''}`;
    let draft = this.drafts.find((candidate) => candidate.key === key);
    if (!draft) {
      draft = { key, parts: [], updatedAt: now };
      this.drafts.push(draft);
    }
    const index =
      typeof delta.index === 'number' && delta.index >= 0 && Number.isInteger(delta.index)
        ? delta.index
        : draft.parts.length;
    if (draft.parts[index] === undefined) {
      draft.parts[index] = delta.delta;
    }
    draft.updatedAt = now;
  }

  /** The newest server message's id: where a reconnected stream or a refetch resumes. */
  lastId(): string | null {
    const ordered = this.ordered();
    return ordered.length > 0 ? ordered[ordered.length - 1].id : null;
  }

  size(): number {
    return this.messages.size;
  }

  /** Every bubble, in display order: server messages, then unsent ones, then streamed replies. */
  entries(now = Date.now()): Entry[] {
    this.dropStaleDrafts(now);
    const sent: Entry[] = this.ordered().map((message) => ({
      key: message.id,
      author: authorOf(message),
      name: authorOf(message) === 'operator' ? (message.author?.name ?? null) : null,
      text: message.message,
      state: 'sent',
    }));
    const unsent: Entry[] = this.locals.map((local) => ({
      key: local.key,
      author: 'customer',
      name: null,
      text: local.text,
      state: local.state,
    }));
    const streaming: Entry[] = this.drafts.map((draft) => ({
      key: draft.key,
      author: 'ai',
      name: null,
      text: draft.parts.join(''),
      state: 'streaming',
    }));
    return [...sent, ...unsent, ...streaming];
  }

  private ordered(): WidgetMessage[] {
    if (this.sorted === null) {
      this.sorted = [...this.messages.values()].sort(compareMessages);
    }
    return this.sorted;
  }

  private dropStaleDrafts(now: number): void {
    this.drafts = this.drafts.filter((draft) => now - draft.updatedAt < DRAFT_TIMEOUT_MS);
  }
}
