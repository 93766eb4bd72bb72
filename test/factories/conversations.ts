import { PendingReplyEntity } from '@/modules/replies/entities/pending-reply.entity';
import { pollUntil } from '../support/wait';
import { API, TestApp } from './test-app';

export interface PostedMessage {
  id: string;
  conversation_id: string;
  role: string;
  message: string;
  message_type: 'text' | 'action' | 'note';
  action: { run_id: string; action_name: string; status: string } | null;
  author: { type: string; id: string | null; name: string | null };
  private: boolean;
  created_at: string;
}

export function conversationsPath(agentId: string): string {
  return `${API}/agents/${agentId}/conversations`;
}

/** Sends a user message as a channel user; the conversation is created on the first one. */
export async function sendAs(
  t: TestApp,
  agentId: string,
  channelUserId: string,
  message: string,
  extra: Record<string, unknown> = {},
  key = t.key,
): Promise<PostedMessage> {
  const res = await t
    .api(key)
    .post(`${conversationsPath(agentId)}/messages`)
    .send({ message, channel_type: 'webchat', channel_user_id: channelUserId, ...extra })
    .expect(201);
  return res.body.data;
}

export async function sendTo(
  t: TestApp,
  agentId: string,
  conversationId: string,
  message: string,
  role?: 'user' | 'assistant',
  key = t.key,
): Promise<PostedMessage> {
  const res = await t
    .api(key)
    .post(`${conversationsPath(agentId)}/${conversationId}/messages`)
    .send({ message, ...(role ? { role } : {}) })
    .expect(201);
  return res.body.data;
}

export async function allMessages(
  t: TestApp,
  agentId: string,
  conversationId: string,
  key = t.key,
): Promise<PostedMessage[]> {
  const messages: PostedMessage[] = [];
  for (let page = 1; ; page++) {
    const res = await t
      .api(key)
      .get(`${conversationsPath(agentId)}/${conversationId}/messages?limit=100&page=${page}`)
      .expect(200);
    messages.push(...res.body.data);
    if (!res.body.meta.has_next_page) {
      return messages;
    }
  }
}

export async function issueTicket(
  t: TestApp,
  agentId: string,
  conversationId: string,
  key = t.key,
): Promise<string> {
  const res = await t
    .api(key)
    .post(`${conversationsPath(agentId)}/${conversationId}/stream-ticket`)
    .expect(201);
  return res.body.data.ticket;
}

/**
 * Waits until every reply the application owes is stored: a pending mark is removed in the
 * transaction that stores its reply (or when no reply is due, the conversation being paused).
 */
export async function repliesSettled(t: TestApp): Promise<void> {
  const pending = t.dataSource().getRepository(PendingReplyEntity);
  const { value } = await pollUntil(
    () => pending.count(),
    (count) => count === 0,
    20_000,
    10,
  );
  if (value > 0) {
    throw new Error(`${value} replies still pending after 20 s`);
  }
}
