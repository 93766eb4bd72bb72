import { Injectable } from '@nestjs/common';
import { AgentsService } from './agents.service';
import { toChannelResponse } from './channels/channel-response.dto';
import { ChannelsRepository } from './channels/channels.repository';
import { AgentDetailResponseDto, toAgentResponse } from './dto/agent-response.dto';
import { toIntegrationSummary } from './integrations/dto/integration-summary.dto';
import { IntegrationsRepository } from './integrations/integrations.repository';
import { toKnowledgeBaseSummary } from './knowledge-bases/dto/knowledge-base-response.dto';
import { KnowledgeBasesRepository } from './knowledge-bases/knowledge-bases.repository';

/** The agent with summaries of everything under it, as GET /agents/{id} answers. */
@Injectable()
export class AgentProfileService {
  constructor(
    private readonly agents: AgentsService,
    private readonly knowledgeBases: KnowledgeBasesRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly channels: ChannelsRepository,
  ) {}

  async detail(teamId: string, agentId: string): Promise<AgentDetailResponseDto> {
    const agent = await this.agents.requireOwned(teamId, agentId);
    const [knowledgeBases, integrations, channels] = await Promise.all([
      this.knowledgeBases.listForAgent(teamId, agentId),
      this.integrations.listForAgent(teamId, agentId),
      this.channels.listForAgent(teamId, agentId),
    ]);
    return {
      ...toAgentResponse(agent),
      knowledge_bases: knowledgeBases.map(toKnowledgeBaseSummary),
      integrations: integrations.map(toIntegrationSummary),
      channels: channels.map(toChannelResponse),
    };
  }
}
