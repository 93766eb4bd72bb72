import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { PhoneNumberEntity } from '@/modules/phone-numbers/entities/phone-number.entity';
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

/** The agent's channels, each beside whether a number routes the team's calls to the agent. */
const CHANNELS_FOR_AGENT =
  'SELECT id, type, name, status, is_connected, EXISTS (SELECT 1 FROM phone_numbers ' +
  'WHERE team_id = $1 AND agent_id = $2 AND inbound_enabled = $3) AS telephony ' +
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
    await this.db.write(() => this.db.manager.insert(AgentChannelEntity, channels));
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

  /**
   * Whether one of the team's phone numbers is linked to the agent with inbound calls on. Read from
   * the phone numbers' table, which the phone numbers module writes: the link lives on the number.
   */
  isTelephonyConnected(teamId: string, agentId: string): Promise<boolean> {
    return this.db.manager.existsBy(PhoneNumberEntity, { teamId, agentId, inboundEnabled: true });
  }
}
