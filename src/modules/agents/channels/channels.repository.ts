import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import {
  AgentChannelEntity,
  CHANNEL_TYPES,
  ChannelSummary,
  ChannelType,
} from '../entities/agent-channel.entity';

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
  `SELECT id, type, name, status, is_connected, ${TELEPHONY_ROUTED} AS telephony ` +
  'FROM agent_channels WHERE team_id = $1 AND agent_id = $2';

@Injectable()
export class ChannelsRepository {
  constructor(private readonly db: Database) {}

  /** One record per channel type: web chat works at once, the others once configured. */
  async createDefaults(teamId: string, agentId: string, now: Date): Promise<void> {
    const channels: AgentChannelEntity[] = CHANNEL_TYPES.map((type) => ({
      id: newId(),
      teamId,
      agentId,
      type,
      name: CHANNEL_NAMES[type],
      status: type === 'webchat' ? 'active' : 'inactive',
      isConnected: type === 'webchat',
      createdAt: now,
      updatedAt: now,
    }));
    await this.db.insert(AgentChannelEntity, channels);
  }

  /** The stored channels, with telephony connected while a number routes calls to the agent. */
  async listForAgent(teamId: string, agentId: string): Promise<ChannelSummary[]> {
    const { rows } = await this.db.execute(CHANNELS_FOR_AGENT, [teamId, agentId, true]);
    // EXISTS reads 1/0 on SQLite and true/false on PostgreSQL.
    const telephony = rows.some((row) => Boolean(row.telephony));
    return this.db
      .hydrate(AgentChannelEntity, rows)
      .map((channel) =>
        channel.type === 'telephony' && telephony
          ? { ...channel, status: 'active' as const, isConnected: true }
          : channel,
      )
      .sort((a, b) => CHANNEL_TYPES.indexOf(a.type) - CHANNEL_TYPES.indexOf(b.type));
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
