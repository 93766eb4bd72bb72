import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { ConversationLabelEntity } from '../entities/conversation-label.entity';
import { ConversationEntity } from '../entities/conversation.entity';

type Labelled = Pick<
  ConversationEntity,
  'id' | 'teamId' | 'status' | 'assigneeId' | 'labels' | 'lastMessageAt'
>;

/** The `conversation_labels` rows of `conversation` as it stands: one per distinct label. */
export function labelRows(conversation: Labelled): ConversationLabelEntity[] {
  return [...new Set(conversation.labels)].map((label) => ({
    conversationId: conversation.id,
    label,
    teamId: conversation.teamId,
    status: conversation.status,
    assigneeId: conversation.assigneeId,
    lastMessageAt: conversation.lastMessageAt,
  }));
}

/**
 * A conversation's rows in `conversation_labels` (what the team queue's label filter reads), kept
 * equal to the conversation: each write of its labels, status, assignee or last message time
 * calls one of these in the transaction that makes it.
 */
@Injectable()
export class ConversationLabels {
  constructor(private readonly db: Database) {}

  /** The conversation changed (`before`, then `changes` on it): its rows follow, if they must. */
  async follow(before: Labelled, changes: Partial<Labelled>): Promise<void> {
    if (changes.labels !== undefined) {
      await this.db.delete(ConversationLabelEntity, { conversationId: before.id });
      await this.db.insert(ConversationLabelEntity, labelRows({ ...before, ...changes }));
      return;
    }
    const copied: Partial<Pick<ConversationLabelEntity, 'status' | 'assigneeId'>> = {};
    if (changes.status !== undefined) {
      copied.status = changes.status;
    }
    if (changes.assigneeId !== undefined) {
      copied.assigneeId = changes.assigneeId;
    }
    if (Object.keys(copied).length > 0 && before.labels.length > 0) {
      await this.db.update(ConversationLabelEntity, { conversationId: before.id }, copied);
    }
  }

  /** A message was added to `conversation` (as the write left it). */
  async messageAdded(conversation: Labelled): Promise<void> {
    if (conversation.labels.length > 0) {
      await this.db.update(
        ConversationLabelEntity,
        { conversationId: conversation.id },
        { lastMessageAt: conversation.lastMessageAt },
      );
    }
  }

  /** The conversation `id` was opened (its labels unknown here: any rows it has follow). */
  async opened(id: string): Promise<void> {
    await this.db.update(ConversationLabelEntity, { conversationId: id }, { status: 'open' });
  }
}
