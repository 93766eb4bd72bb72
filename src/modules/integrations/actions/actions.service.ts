import { Injectable } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { ActionWithdrawals } from '../action-withdrawals.service';
import { ActionResponseDto, toActionResponse } from '../dto/action-response.dto';
import { IntegrationsRepository } from '../integrations.repository';
import { ActionsRepository } from './actions.repository';

@Injectable()
export class ActionsService {
  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly withdrawals: ActionWithdrawals,
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

  /**
   * Ids that are not this agent's actions are ignored and not counted. Disabled actions' runs
   * that wait for approval are rejected with the change.
   */
  async setEnabled(
    teamId: string,
    agentId: string,
    ids: string[],
    enabled: boolean,
  ): Promise<number> {
    await this.agents.requireOwned(teamId, agentId);
    const unique = [...new Set(ids)];
    return this.db.transaction(async () => {
      const updated = await this.actions.setEnabled(teamId, agentId, unique, enabled);
      if (!enabled) {
        await this.withdrawals.withdrawn(teamId, agentId, unique);
      }
      return updated;
    });
  }
}
