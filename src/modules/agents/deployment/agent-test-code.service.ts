import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { ChannelsRepository } from '../channels/channels.repository';
import { agentTestCode, AgentTestCodeResponseDto } from '../dto/agent-test-code-response.dto';
import { AgentEntity } from '../entities/agent.entity';

/**
 * The test code of an agent, with the test channels this installation is configured with; its
 * telephony is enabled too while one of the team's numbers routes calls to the agent.
 */
@Injectable()
export class AgentTestCodeService {
  constructor(
    private readonly config: AppConfig,
    private readonly channels: ChannelsRepository,
  ) {}

  async describe(agent: AgentEntity): Promise<AgentTestCodeResponseDto> {
    const telephony = await this.channels.isTelephonyConnected(agent.teamId, agent.id);
    return agentTestCode(agent.testChannelCode, this.config.agents.testChannels, { telephony });
  }
}
