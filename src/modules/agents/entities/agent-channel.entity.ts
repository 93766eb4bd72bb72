import { Column, Entity, Unique } from 'typeorm';
import { BooleanColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';
import { CHANNEL_TYPES, ChannelType } from '../dto/channel-types';

export { CHANNEL_TYPES, type ChannelType };

export type ChannelStatus = 'active' | 'inactive';

@Entity('agent_channels')
@Unique('uq_agent_channels_agent_type', ['agentId', 'type'])
export class AgentChannelEntity extends AgentScopedEntity {
  @Column({ type: 'varchar', length: 32 })
  type: ChannelType;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  status: ChannelStatus;

  @BooleanColumn('is_connected', false)
  isConnected: boolean;
}

/** What the API shows of a channel. */
export type ChannelSummary = Pick<
  AgentChannelEntity,
  'id' | 'type' | 'name' | 'status' | 'isConnected'
>;
