import { Injectable } from '@nestjs/common';
import { IntegrationsService } from '@/modules/agents/integrations/integrations.service';
import { KnowledgeBasesService } from '@/modules/agents/knowledge-bases/knowledge-bases.service';
import { AgentsService } from './agents.service';
import { ChannelsRepository } from './channels/channels.repository';
import { AgentDetailResponseDto, toAgentResponse } from './dto/agent-response.dto';
import { toChannelResponse } from './dto/channel-response.dto';

/** The agent with summaries of everything under it, as GET /agents/{id} answers. */
@Injectable()
export class AgentProfileService {
  constructor(
    private readonly agents: AgentsService,
    private readonly knowledgeBases: KnowledgeBasesService,
    private readonly integrations: IntegrationsService,
    private readonly channels: ChannelsRepository,
  ) {}

  async detail(teamId: string, agentId: string): Promise<AgentDetailResponseDto> {
    const agent = await this.agents.requireOwned(teamId, agentId);
    const [knowledgeBases, integrations, channels] = await Promise.all([
      this.knowledgeBases.summaries(teamId, agentId),
      this.integrations.summaries(teamId, agentId),
      this.channels.listForAgent(teamId, agentId),
    ]);
    return {
      ...toAgentResponse(agent),
      knowledge_bases: knowledgeBases,
      integrations,
      channels: channels.map(toChannelResponse),
    };
  }
}
