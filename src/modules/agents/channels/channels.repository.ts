import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { Changes } from '@/database/sql/entity-statements';
import { AgentChannelEntity, CHANNEL_TYPES, ChannelType } from '../entities/agent-channel.entity';
import { CALLS_UNAVAILABLE, NOT_CONNECTED } from './channel-reasons';

const CHANNEL_NAMES: Record<ChannelType, string> = {
  webchat: 'Web chat',
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  messenger: 'Messenger',
  telephony: 'Telephony',
};

/**
 * Whether one of the team's ($1) phone numbers is linked to the agent ($2) with inbound calls on
 * ($3 true). Read from the phone numbers' table, which the phone numbers module writes: the link
 * lives on the number.
 */
const TELEPHONY_ROUTED =
  'EXISTS (SELECT 1 FROM phone_numbers WHERE team_id = $1 AND agent_id = $2 AND inbound_enabled = $3)';

/** The agent's channels, each beside whether a number routes the team's calls to the agent. */
const CHANNELS_FOR_AGENT =
  `SELECT *, ${TELEPHONY_ROUTED} AS telephony ` +
  'FROM agent_channels WHERE team_id = $1 AND agent_id = $2';

@Injectable()
export class ChannelsRepository {
  constructor(private readonly db: Database) {}

  /** One record per channel type, each inactive until connected (telephony: until calls exist). */
  async createDefaults(teamId: string, agentId: string, now: Date): Promise<void> {
    const channels: AgentChannelEntity[] = CHANNEL_TYPES.map((type) => ({
      id: newId(),
      teamId,
      agentId,
      type,
      name: CHANNEL_NAMES[type],
      status: 'inactive',
      statusReason: type === 'telephony' ? CALLS_UNAVAILABLE : NOT_CONNECTED,
      isConnected: false,
      config: {},
      allowedOrigins: [],
      secrets: null,
      publishableKeyHash: null,
      connectedAt: null,
      createdAt: now,
      updatedAt: now,
    }));
    await this.db.insert(AgentChannelEntity, channels);
  }

  /**
   * The stored channels, telephony connected while a number routes calls to the agent (and still
   * inactive: calls are not answered).
   */
  async listForAgent(teamId: string, agentId: string): Promise<AgentChannelEntity[]> {
    const { rows } = await this.db.execute(CHANNELS_FOR_AGENT, [teamId, agentId, true]);
    // EXISTS reads 1/0 on SQLite and true/false on PostgreSQL.
    const telephony = rows.some((row) => Boolean(row.telephony));
    return this.db
      .hydrate(AgentChannelEntity, rows)
      .map((channel) =>
        channel.type === 'telephony' && telephony ? { ...channel, isConnected: true } : channel,
      )
      .sort((a, b) => CHANNEL_TYPES.indexOf(a.type) - CHANNEL_TYPES.indexOf(b.type));
  }

  /** The agent's channel of `type`, locked until the caller's transaction ends. */
  findForUpdate(
    teamId: string,
    agentId: string,
    type: ChannelType,
  ): Promise<AgentChannelEntity | null> {
    return this.db.findOne(AgentChannelEntity, { teamId, agentId, type }, { lock: 'update' });
  }

  async update(teamId: string, id: string, changes: Changes<AgentChannelEntity>): Promise<void> {
    await this.db.update(AgentChannelEntity, { teamId, id }, changes);
  }

  /** The connected web chat whose publishable key hashes to `hash`. */
  findByPublishableKey(hash: string): Promise<AgentChannelEntity | null> {
    return this.db.findOne(AgentChannelEntity, {
      publishableKeyHash: hash,
      type: 'webchat',
      isConnected: true,
    });
  }

  findConnected(
    teamId: string,
    agentId: string,
    type: ChannelType,
  ): Promise<AgentChannelEntity | null> {
    return this.db.findOne(AgentChannelEntity, { teamId, agentId, type, isConnected: true });
  }

  findById(teamId: string, id: string): Promise<AgentChannelEntity | null> {
    return this.db.findOne(AgentChannelEntity, { teamId, id });
  }

  findConnectedById(id: string): Promise<AgentChannelEntity | null> {
    return this.db.findOne(AgentChannelEntity, { id, isConnected: true });
  }

  findConnectedWebchat(id: string): Promise<AgentChannelEntity | null> {
    return this.db.findOne(AgentChannelEntity, { id, type: 'webchat', isConnected: true });
  }

  /** Whether some connected web chat allows `origin`: what a CORS preflight may be told. */
  async anyWebchatAllows(origin: string): Promise<boolean> {
    const { rows } = await this.db.execute(
      `SELECT 1 AS found FROM agent_channels
       WHERE type = 'webchat' AND is_connected = $1
         AND ${this.db.dialect.anyJsonElement('allowed_origins', (element) => `${element} = $2`)}
       LIMIT 1`,
      [true, origin],
    );
    return rows.length > 0;
  }

  /** Whether a number routes the team's calls to the agent (TELEPHONY_ROUTED). */
  async isTelephonyConnected(teamId: string, agentId: string): Promise<boolean> {
    const { rows } = await this.db.execute<{ telephony: unknown }>(
      `SELECT ${TELEPHONY_ROUTED} AS telephony`,
      [teamId, agentId, true],
    );
    return Boolean(rows[0].telephony);
  }
}
