import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { AgentChannelEntity, CHANNEL_TYPES, ChannelType } from '../entities/agent-channel.entity';

const CHANNEL_NAMES: Record<ChannelType, string> = {
  webchat: 'Web chat',
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  messenger: 'Messenger',
  telephony: 'Telephony',
};

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

  async listForAgent(teamId: string, agentId: string): Promise<AgentChannelEntity[]> {
    const channels = await this.db.manager.findBy(AgentChannelEntity, { teamId, agentId });
    return channels.sort((a, b) => CHANNEL_TYPES.indexOf(a.type) - CHANNEL_TYPES.indexOf(b.type));
  }
}
