import { Injectable } from '@nestjs/common';
import { AgentsService } from '@/modules/agents/agents.service';
import { ActionResponseDto, toActionResponse } from '../dto/action-response.dto';
import { IntegrationsRepository } from '../integrations.repository';
import { ActionsRepository } from './actions.repository';

@Injectable()
export class ActionsService {
  constructor(
    private readonly agents: AgentsService,
    private readonly actions: ActionsRepository,
    private readonly integrations: IntegrationsRepository,
  ) {}

  /** Every action of every integration of the agent, with the integration it belongs to. */
  async list(teamId: string, agentId: string): Promise<ActionResponseDto[]> {
    await this.agents.requireOwned(teamId, agentId);
    const [actions, integrations] = await Promise.all([
      this.actions.listForAgent(teamId, agentId),
      this.integrations.listForAgent(teamId, agentId),
    ]);
    const byId = new Map(integrations.map((integration) => [integration.id, integration]));
    // The two reads are not one snapshot: an integration added or deleted between them leaves
    // actions whose integration was not seen, and those are left out rather than half-shown.
    return actions.flatMap((action) => {
      const integration = byId.get(action.integrationId);
      return integration ? [toActionResponse(action, integration)] : [];
    });
  }

  /** Ids that are not this agent's actions are ignored and not counted. */
  async setEnabled(
    teamId: string,
    agentId: string,
    ids: string[],
    enabled: boolean,
  ): Promise<number> {
    await this.agents.requireOwned(teamId, agentId);
    return this.actions.setEnabled(teamId, agentId, [...new Set(ids)], enabled);
  }
}
