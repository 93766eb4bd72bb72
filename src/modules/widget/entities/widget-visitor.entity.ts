import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { IdColumn, TimeColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';

/**
 * A visitor of a web chat: a browser holding an opaque token (stored by hash), the channel user
 * of its conversation with the agent (`channel_user_id` = this id).
 */
@Entity('widget_visitors')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Index('ix_widget_visitors_token', ['tokenHash'], { unique: true })
export class WidgetVisitorEntity extends AgentScopedEntity {
  @IdColumn('channel_id')
  @ForeignKey('agent_channels', { onDelete: 'CASCADE' })
  channelId: string;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @TimeColumn('last_seen_at')
  lastSeenAt: Date;
}
