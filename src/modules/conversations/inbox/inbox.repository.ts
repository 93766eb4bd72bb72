import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { Changes } from '@/database/sql/entity-statements';
import { ConversationEntity } from '../entities/conversation.entity';
import { ConversationLabels } from './conversation-labels';

/**
 * The reads and writes of the inbox fields; announcing them is the caller's (ConversationInbox).
 * The conversation's label rows follow its labels, status and assignee in the same transaction.
 */
@Injectable()
export class InboxRepository {
  constructor(
    private readonly db: Database,
    private readonly labels: ConversationLabels,
  ) {}

  /** The agent's conversation, locked until the caller's transaction ends. */
  findForUpdate(teamId: string, agentId: string, id: string): Promise<ConversationEntity | null> {
    return this.db.findOne(ConversationEntity, { teamId, agentId, id }, { lock: 'update' });
  }

  /** Sets `changes` on `conversation` (as the caller's transaction read it). */
  async update(
    conversation: ConversationEntity,
    changes: Changes<ConversationEntity>,
  ): Promise<void> {
    await this.db.update(
      ConversationEntity,
      { teamId: conversation.teamId, id: conversation.id },
      changes,
    );
    await this.labels.follow(conversation, changes);
  }

  /** Opens the conversation if it is resolved or snoozed; whether it did. */
  async reopen(teamId: string, id: string, now: Date): Promise<boolean> {
    const changed = await this.db.update(
      ConversationEntity,
      { teamId, id, status: ['resolved', 'snoozed'] },
      {
        status: 'open',
        snoozedUntil: null,
        snoozeLeaseUntil: null,
        snoozeLeaseToken: null,
        updatedAt: now,
      },
    );
    if (changed === 0) {
      return false;
    }
    await this.labels.opened(id);
    return true;
  }

  /**
   * Marks the conversation as needing attention during a paused stretch; true when this is the
   * first time in the stretch (decided under the row's lock, so exactly one writer announces).
   */
  async raisePausedAttention(teamId: string, id: string): Promise<boolean> {
    const first = await this.db.update(
      ConversationEntity,
      { teamId, id, pauseAnnounced: false },
      { pauseAnnounced: true, needsAttention: true },
    );
    if (first === 0) {
      await this.db.update(ConversationEntity, { teamId, id }, { needsAttention: true });
    }
    return first > 0;
  }
}
