import {
  MessageAction,
  MessageAttachment,
  MessageAuthor,
  MessageRole,
  MessageType,
} from '../entities/message.entity';

/** Where a stored message is: what its attachments' console URLs are made of. */
export interface StoredAt {
  agentId: string;
  conversationId: string;
  id: string;
}

/** A message about to be written: what it says, who says it, and what kind it is. */
export interface MessageDraft {
  role: MessageRole;
  text: string;
  author: MessageAuthor;
  messageType: MessageType;
  action: MessageAction | null;
  /** A customer's media, once the message's place is known (none when absent). */
  attachments?: (at: StoredAt) => MessageAttachment[];
}

/** An operator as the caller names them; either part may be missing. */
export interface Operator {
  id?: string | null;
  name?: string | null;
}

function operatorAuthor(operator: Operator | undefined): MessageAuthor {
  return { type: 'operator', id: operator?.id ?? null, name: operator?.name ?? null };
}

export function customerMessage(text: string): MessageDraft {
  const author: MessageAuthor = { type: 'customer', id: null, name: null };
  return { role: 'user', text, author, messageType: 'text', action: null };
}

export function operatorMessage(text: string, operator?: Operator): MessageDraft {
  const author = operatorAuthor(operator);
  return { role: 'assistant', text, author, messageType: 'text', action: null };
}

/** A private note between staff: never the customer's, the model's, nor a `message.created`. */
export function privateNote(text: string, operator?: Operator): MessageDraft {
  const author = operatorAuthor(operator);
  return { role: 'assistant', text, author, messageType: 'note', action: null };
}

/** What the reply pipeline answers. */
export function aiReply(text: string): MessageDraft {
  const author: MessageAuthor = { type: 'ai', id: null, name: null };
  return { role: 'assistant', text, author, messageType: 'text', action: null };
}

/** The service's own words, not the model's (the fixed hand-off line). */
export function serviceNotice(text: string): MessageDraft {
  const author: MessageAuthor = { type: 'system', id: null, name: null };
  return { role: 'assistant', text, author, messageType: 'text', action: null };
}

/** The service's own line about an action run. */
export function actionLine(text: string, action: MessageAction): MessageDraft {
  const author: MessageAuthor = { type: 'system', id: null, name: null };
  return { role: 'assistant', text, author, messageType: 'action', action };
}

export function isPrivate(message: { messageType: MessageType }): boolean {
  return message.messageType === 'note';
}
