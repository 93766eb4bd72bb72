import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { ConversationEntity } from '../entities/conversation.entity';
import { ReportEventEntity, ReportEventKind } from './report-event.entity';

/** Writes the hand-offs and resolutions the reports count, in the caller's transaction. */
@Injectable()
export class ReportEventsRepository {
  constructor(private readonly db: Database) {}

  async record(kind: ReportEventKind, conversation: ConversationEntity): Promise<void> {
    await this.db.insert(ReportEventEntity, [
      {
        id: newId(),
        teamId: conversation.teamId,
        agentId: conversation.agentId,
        conversationId: conversation.id,
        kind,
        afterHandoff: kind === 'resolved' && conversation.handoffAt !== null,
        createdAt: new Date(),
      },
    ]);
  }
}
