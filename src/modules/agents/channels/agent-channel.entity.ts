import { Column, Entity, PrimaryColumn } from 'typeorm';

export const CHANNEL_TYPES = [
  'webchat',
  'whatsapp',
  'instagram',
  'messenger',
  'telephony',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export type ChannelStatus = 'active' | 'inactive';

@Entity('agent_channels')
export class AgentChannelEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @Column({ name: 'agent_id', type: 'varchar', length: 36 })
  agentId: string;

  @Column({ type: 'varchar', length: 32 })
  type: ChannelType;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  status: ChannelStatus;

  @Column({ name: 'is_connected', type: 'boolean' })
  isConnected: boolean;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
