import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { newId } from '@/common/ids';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { ActionWithdrawals } from './action-withdrawals.service';
import { ExecutableAction } from './actions/action-executor';
import { ActionsRepository } from './actions/actions.repository';
import { CatalogAction } from './connector-actions';
import {
  ConfigField,
  CONNECTORS,
  CUSTOM_API_CONFIG_FIELDS,
  MCP_SERVER_CONFIG_FIELDS,
  PIPEDREAM_CONFIG_FIELDS,
} from './connector-catalog';
import {
  IntegrationListItemDto,
  IntegrationSummaryDto,
  toIntegrationAction,
  toIntegrationSummary,
} from './dto/integration-response.dto';
import { ActionEntity } from './entities/action.entity';
import { IntegrationEntity, IntegrationFamily } from './entities/integration.entity';
import { IntegrationsRepository } from './integrations.repository';

export const MAX_INTEGRATIONS_PER_AGENT = 50;

export type NewIntegration = Omit<
  IntegrationEntity,
  'id' | 'teamId' | 'agentId' | 'createdAt' | 'updatedAt'
>;

function configFieldsOf(integration: IntegrationEntity): ConfigField[] {
  switch (integration.family) {
    case 'bimpeai':
      return CONNECTORS[integration.type as keyof typeof CONNECTORS]?.configFields ?? [];
    case 'custom_api':
      return CUSTOM_API_CONFIG_FIELDS;
    case 'mcp_server':
      return MCP_SERVER_CONFIG_FIELDS;
    case 'pipedream':
      return PIPEDREAM_CONFIG_FIELDS;
  }
}

/** What every integration family shares: ownership checks, limits, URLs, and the family-wide list. */
@Injectable()
export class IntegrationsService {
  private readonly dashboardUrl: string;

  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly integrations: IntegrationsRepository,
    private readonly actions: ActionsRepository,
    private readonly withdrawals: ActionWithdrawals,
    private readonly outbound: OutboundHttp,
    config: AppConfig,
  ) {
    this.dashboardUrl = config.integrations.dashboardUrl;
  }

  async requireAgent(teamId: string, agentId: string): Promise<void> {
    await this.agents.requireOwned(teamId, agentId);
  }

  async require(
    teamId: string,
    agentId: string,
    id: string,
    family: IntegrationFamily,
  ): Promise<IntegrationEntity> {
    await this.requireAgent(teamId, agentId);
    const integration = await this.integrations.findOwned(teamId, agentId, id, family);
    if (!integration) {
      throw Errors.notFound('Integration not found');
    }
    return integration;
  }

  async listFamily(
    teamId: string,
    agentId: string,
    family: IntegrationFamily,
  ): Promise<IntegrationEntity[]> {
    await this.requireAgent(teamId, agentId);
    return this.integrations.listForAgent(teamId, agentId, family);
  }

  /** Adds an integration (and its actions) if the agent has room for one more. */
  async add(
    teamId: string,
    agentId: string,
    fields: NewIntegration,
    actions: CatalogAction[] = [],
  ): Promise<IntegrationEntity> {
    await this.requireAgent(teamId, agentId);
    return this.db.transaction(async () => {
      await this.db.lockRow('agents', agentId);
      if ((await this.integrations.countForAgent(teamId, agentId)) >= MAX_INTEGRATIONS_PER_AGENT) {
        throw Errors.conflict(
          `An agent can have at most ${MAX_INTEGRATIONS_PER_AGENT} integrations`,
        );
      }
      const now = new Date();
      const integration: IntegrationEntity = {
        ...fields,
        id: newId(),
        teamId,
        agentId,
        createdAt: now,
        updatedAt: now,
      };
      await this.integrations.insert(integration);
      await this.actions.insert(actions.map((action) => this.newAction(integration, action, now)));
      return integration;
    });
  }

  /** Deletes the integration with its actions; their runs that wait for approval are rejected. */
  async remove(
    teamId: string,
    agentId: string,
    id: string,
    family: IntegrationFamily,
  ): Promise<void> {
    await this.requireAgent(teamId, agentId);
    await this.db.transaction(async () => {
      const actionIds = (await this.actions.listForIntegration(teamId, id)).map(({ id }) => id);
      if (!(await this.integrations.delete(teamId, agentId, id, family))) {
        throw Errors.notFound('Integration not found');
      }
      await this.withdrawals.withdrawn(teamId, agentId, actionIds);
    });
  }

  /** Refuses (400) a URL the service may not call; `field` names it in the message. */
  async assertCallable(url: string | null | undefined, field: string): Promise<void> {
    if (!url) {
      return;
    }
    const refusal = await this.outbound.refusal(url);
    if (refusal) {
      throw Errors.validation([`${field}: ${refusal}`]);
    }
  }

  /** The dashboard page where the team finishes connecting the integration. */
  onboardingUrl(agentId: string, kind: string, integrationId: string): string {
    return this.integrationPageUrl(agentId, `${kind}/connect`, integrationId);
  }

  /** The dashboard page of the integration. */
  integrationPageUrl(agentId: string, kind: string, integrationId: string): string {
    return `${this.dashboardUrl}/agents/${agentId}/integrations/${kind}?integration_id=${integrationId}`;
  }

  newAction(
    integration: IntegrationEntity,
    action: CatalogAction,
    now: Date,
    config: Record<string, unknown> = {},
  ): ActionEntity {
    return {
      id: newId(),
      teamId: integration.teamId,
      agentId: integration.agentId,
      integrationId: integration.id,
      actionName: action.action_name,
      name: action.name,
      description: action.description,
      category: action.category,
      isEnabled: true,
      isAvailable: true,
      requireHumanApproval: action.require_human_approval,
      config,
      secrets: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Inserts catalogue actions the integration does not have yet (by action name). */
  async addMissingActions(integration: IntegrationEntity, catalog: CatalogAction[]): Promise<void> {
    const existing = new Set(
      (await this.actions.listForIntegration(integration.teamId, integration.id)).map(
        (a) => a.actionName,
      ),
    );
    const now = new Date();
    await this.actions.insert(
      catalog
        .filter((action) => !existing.has(action.action_name))
        .map((action) => this.newAction(integration, action, now)),
    );
  }

  /** Every integration of the agent, all families, with its settings form and its actions. */
  async describeAll(teamId: string, agentId: string): Promise<IntegrationListItemDto[]> {
    await this.requireAgent(teamId, agentId);
    const [integrations, actions] = await Promise.all([
      this.integrations.listForAgent(teamId, agentId),
      this.actions.listForAgent(teamId, agentId),
    ]);
    return integrations.map((integration) => ({
      ...toIntegrationSummary(integration),
      config_fields: configFieldsOf(integration),
      actions: actions
        .filter((action) => action.integrationId === integration.id)
        .map(toIntegrationAction),
    }));
  }

  /**
   * The actions the agent may run now (enabled, still offered by their integration), each with
   * its integration, secrets still sealed. For the action runner, which has checked the agent.
   */
  async executableActions(teamId: string, agentId: string): Promise<ExecutableAction[]> {
    const [integrations, actions] = await Promise.all([
      this.integrations.listForAgent(teamId, agentId),
      this.actions.listForAgent(teamId, agentId),
    ]);
    const byId = new Map(integrations.map((integration) => [integration.id, integration]));
    return actions
      .filter((action) => action.isEnabled && action.isAvailable && byId.has(action.integrationId))
      .map((action) => ({ action, integration: byId.get(action.integrationId)! }));
  }

  /**
   * One action of the agent with its integration, whatever its state (a run parked for approval
   * is decided on after the action may have been disabled: the runner chooses); null if the agent
   * has no such action.
   */
  async executableAction(
    teamId: string,
    agentId: string,
    actionId: string,
  ): Promise<ExecutableAction | null> {
    const action = await this.actions.findForAgent(teamId, agentId, actionId);
    if (!action) {
      return null;
    }
    const integration = await this.integrations.findForAgent(teamId, agentId, action.integrationId);
    return integration ? { action, integration } : null;
  }

  /** For the agent's profile, whose caller has checked the agent already. */
  async summaries(teamId: string, agentId: string): Promise<IntegrationSummaryDto[]> {
    return (await this.integrations.summariesForAgent(teamId, agentId)).map(toIntegrationSummary);
  }
}
