import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { TeamScopedEntity } from '@/database/team-scoped.entity';
import type { ConversationChannel } from '../entities/conversation.entity';

/** The person behind a channel user: one per (team, channel type, channel user id). */
@Entity('contacts')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
// Concurrent first messages of one channel user meet here and make one contact.
@Unique('uq_contacts_channel_user', ['teamId', 'channelType', 'channelUserId'])
@Index('ix_contacts_team_created', ['teamId', 'createdAt'])
@Index('ix_contacts_team_updated', ['teamId', 'updatedAt'])
export class ContactEntity extends TeamScopedEntity {
  @Column({ name: 'channel_type', type: 'varchar', length: 32 })
  channelType: ConversationChannel;

  @Column({ name: 'channel_user_id', type: 'varchar', length: 255 })
  channelUserId: string;

  @Column({ name: 'full_name', type: 'varchar', length: 255, nullable: true })
  fullName: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email: string | null;

  @Column({ name: 'phone_number', type: 'varchar', length: 16, nullable: true })
  phoneNumber: string | null;

  @Column({ name: 'profile_picture', type: 'varchar', length: 2048, nullable: true })
  profilePicture: string | null;

  @Column({ type: 'text', nullable: true })
  notes: string | null;
}
