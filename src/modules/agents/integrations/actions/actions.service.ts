import { Injectable } from '@nestjs/common';
import { AgentsService } from '../agents.service';
import { IntegrationsRepository } from '../integrations/integrations.repository';
import { ActionsRepository } from './actions.repository';
import { ActionResponseDto } from './dto/actions.dto';

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
    return actions.map((action) => {
      const integration = byId.get(action.integrationId)!;
      return {
        id: action.id,
        integration_id: action.integrationId,
        integration_type: integration.type,
        integration_name: integration.name,
        name: action.name,
        action_name: action.actionName,
        description: action.description,
        is_enabled: action.isEnabled,
      };
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
