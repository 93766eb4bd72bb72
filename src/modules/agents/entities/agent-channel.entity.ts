import { Column, Entity, Index, Unique } from 'typeorm';
import { BooleanColumn, TimeColumn } from '@/database/columns';
import { AgentScopedEntity } from '@/database/agent-scoped.entity';
import { CHANNEL_TYPES, ChannelType } from '../dto/channel-types';

export { CHANNEL_TYPES, type ChannelType };

export const CHANNEL_STATUSES = ['inactive', 'active', 'error'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

/** A web chat's settings besides its origins, shown back in `config` with them. */
export type WebchatConfig = {
  title: string | null;
  greeting: string | null;
  color: string | null;
};

/** The settings of a channel's last connect that are not secret, by name. */
export type ChannelConfig = Record<string, string | null>;

@Entity('agent_channels')
@Unique('uq_agent_channels_agent_type', ['agentId', 'type'])
// A widget's requests name their channel by its publishable key alone.
@Index('ix_agent_channels_publishable_key', ['publishableKeyHash'], { unique: true })
export class AgentChannelEntity extends AgentScopedEntity {
  @Column({ type: 'varchar', length: 32 })
  type: ChannelType;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  status: ChannelStatus;

  /** Why the channel is not active (or what went wrong), for people to read. */
  @Column({ name: 'status_reason', type: 'varchar', length: 500, nullable: true })
  statusReason: string | null;

  @BooleanColumn('is_connected', false)
  isConnected: boolean;

  /** The settings of the last connect that are not secret. */
  @Column({ type: 'simple-json', default: '{}' })
  config: ChannelConfig;

  /** The origins whose pages may use a web chat (`https://shop.example`); [] for other types. */
  @Column({ name: 'allowed_origins', type: 'simple-json', default: '[]' })
  allowedOrigins: string[];

  /** The secrets of the last connect (tokens, app secrets), sealed with the SecretBox. */
  @Column({ type: 'text', nullable: true })
  secrets: string | null;

  /** SHA-256 of the web chat's `pk_` key; the key itself is shown once, at connect. */
  @Column({ name: 'publishable_key_hash', type: 'varchar', length: 64, nullable: true })
  publishableKeyHash: string | null;

  @TimeColumn('connected_at', { nullable: true })
  connectedAt: Date | null;
}

/** What the API shows of a channel. */
export type ChannelSummary = Pick<
  AgentChannelEntity,
  | 'id'
  | 'type'
  | 'name'
  | 'status'
  | 'statusReason'
  | 'isConnected'
  | 'config'
  | 'allowedOrigins'
  | 'connectedAt'
>;
