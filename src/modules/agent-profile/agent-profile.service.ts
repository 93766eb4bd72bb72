import { Injectable } from '@nestjs/common';
import { AgentsService } from '@/modules/agents/agents.service';
import { toAgentResponse } from '@/modules/agents/dto/agent-response.dto';
import { toChannelResponse } from '@/modules/agents/dto/channel-response.dto';
import { IntegrationsService } from '@/modules/integrations/integrations.service';
import { KnowledgeBasesService } from '@/modules/knowledge/knowledge-bases.service';
import { AgentDetailResponseDto } from './dto/agent-detail-response.dto';

/** The agent with summaries of everything under it, as GET /agents/{id} answers. */
@Injectable()
export class AgentProfileService {
  constructor(
    private readonly agents: AgentsService,
    private readonly knowledgeBases: KnowledgeBasesService,
    private readonly integrations: IntegrationsService,
  ) {}

  async detail(teamId: string, agentId: string): Promise<AgentDetailResponseDto> {
    const agent = await this.agents.requireOwned(teamId, agentId);
    const [knowledgeBases, integrations, channels] = await Promise.all([
      this.knowledgeBases.summaries(teamId, agentId),
      this.integrations.summaries(teamId, agentId),
      this.agents.channelSummaries(teamId, agentId),
    ]);
    return {
      ...toAgentResponse(agent),
      knowledge_bases: knowledgeBases,
      integrations,
      channels: channels.map(toChannelResponse),
    };
  }
}
