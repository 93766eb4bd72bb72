import type { ConversationEntity } from '@/modules/conversations/entities/conversation.entity';
import type { MessageDraft } from '@/modules/conversations/conversations.public';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { PendingReplyEntity } from './entities/pending-reply.entity';
import { Reply, ReplyEngine } from './reply-engine';

/** The fakes the reply worker's spec drives it with: its table, its conversation, its engine. */

export const SWEEP_MS = 2_000;
export const message = { id: 'message', conversationId: 'conversation', seq: 1 } as MessageEntity;

const leaseFree = (row: PendingReplyEntity, now: Date) =>
  !row.leaseUntil || row.leaseUntil.getTime() < now.getTime();

/** The pending_replies table, claimed as `JobTable` claims it: a claim's token settles it. */
export class FakePending {
  readonly rows = new Map<string, PendingReplyEntity>();
  /** Whether renewals get through (false: the worker holding the claim is stalled). */
  renewing = true;
  private claims = 0;

  readonly jobs = {
    claim: async (id: string, leaseMs: number) => {
      const row = this.rows.get(id);
      if (!row || !leaseFree(row, new Date())) {
        return null;
      }
      const token = `claim-${++this.claims}`;
      Object.assign(row, { leaseToken: token, attempts: row.attempts + 1 });
      row.leaseUntil = new Date(Date.now() + leaseMs);
      return { row: { ...row }, token };
    },
    renew: async (id: string, token: string, leaseMs: number) => {
      const row = this.rows.get(id);
      const held = this.renewing && row?.leaseToken === token;
      return held && Boolean((row.leaseUntil = new Date(Date.now() + leaseMs)));
    },
    remove: async (id: string, token: string) =>
      this.rows.get(id)?.leaseToken === token && this.rows.delete(id),
    due: async (limit: number, _perTeam: number, now: Date) =>
      [...this.rows.values()]
        .filter((row) => row.createdAt <= now && leaseFree(row, now))
        .slice(0, limit),
    releaseAll: async () => undefined,
  };

  /** A user message's pending reply, written a sweep ago. */
  add(changes: Partial<PendingReplyEntity> = {}): void {
    const createdAt = new Date(Date.now() - SWEEP_MS);
    const [agentId, conversationId, messageId] = ['agent', 'conversation', 'message'];
    const row = { id: 'pending', teamId: 'team', agentId, conversationId, messageId, createdAt };
    this.rows.set('pending', {
      ...row,
      attempts: 0,
      leaseUntil: null,
      leaseToken: null,
      ...changes,
    });
  }
}

/** The conversation, the replies stored in it and those published. */
export class FakeConversations {
  conversation = { id: 'conversation', isAiChatPaused: false } as ConversationEntity | null;
  readonly replies: Array<{ text: string; changes: object }> = [];
  readonly published: MessageEntity[] = [];
  messageReads = 0;

  findForReply = async () => this.conversation;
  isAiPaused = async () => this.conversation?.isAiChatPaused ?? false;
  findMessage = async () => (this.messageReads++, message);
  recentMessages = async () => [message];
  publish = (stored: MessageEntity) => this.published.push(stored);

  async appendAssistant(_conversation: unknown, { text }: MessageDraft, changes: object) {
    this.replies.push({ text, changes });
    return { ...message, message: text };
  }
}

/** An engine that fails its first `failures` replies. */
export class FakeEngine implements ReplyEngine {
  failures = 0;
  asked = 0;
  /** What each ask answers (by default 'Hello!'). */
  answers: string[] = [];
  /** Runs while the engine thinks, as a concurrent request would; the engine waits for it. */
  meanwhile: () => unknown = () => {};

  async reply(): Promise<Reply> {
    const ask = ++this.asked;
    await this.meanwhile();
    if (ask <= this.failures) {
      throw new Error('model unreachable');
    }
    return { text: this.answers[ask - 1] ?? 'Hello!', needsAttention: false, source: 'llm' };
  }
}
