import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { Errors } from '@/common/http/api-error';
import { WritePhase } from '@/common/idempotency/write-phase';
import { Database } from '@/database/database.service';
import { ActionEntity } from '../entities/action.entity';
import { ActionWithdrawals } from '../action-withdrawals.service';
import { ActionsRepository } from '../actions/actions.repository';
import { authHeaders, checkedAuthConfig } from '../auth-headers';
import { AuthConfig, AuthType } from '../dto/auth-config.dto';
import { McpServerConfigureDto, McpTransport } from '../dto/mcp-server-configure.dto';
import {
  McpDiscoverResultDto,
  McpServerItemDto,
  McpTestResultDto,
  toMcpServerItem,
} from '../dto/mcp-server-response.dto';
import { ToolResponseDto, toToolResponse } from '../dto/tool-response.dto';
import { IntegrationEntity } from '../entities/integration.entity';
import { IntegrationsRepository } from '../integrations.repository';
import { IntegrationsService } from '../integrations.service';
import { describeError, McpClient, McpServerAddress, McpTool } from './mcp-client';

interface McpConfig {
  name: string;
  server_url: string;
  transport: McpTransport;
  auth_type: AuthType;
}

/** Why the server could not be used, for people: without the runtime's error class names. */
function describeFailure(error: unknown): string {
  return describeError(error)
    .replace(/\b[A-Z]\w*Error: /g, '')
    .slice(0, 500);
}

/** MCP servers: their tools become the agent's actions through discovery. */
@Injectable()
export class McpServersService {
  private readonly logger = new Logger(McpServersService.name);

  constructor(
    private readonly db: Database,
    private readonly writePhase: WritePhase,
    private readonly integrations: IntegrationsService,
    private readonly repository: IntegrationsRepository,
    private readonly actions: ActionsRepository,
    private readonly withdrawals: ActionWithdrawals,
    private readonly secretBox: SecretBox,
    private readonly client: McpClient,
  ) {}

  async list(teamId: string, agentId: string): Promise<McpServerItemDto[]> {
    return (await this.integrations.listFamily(teamId, agentId, 'mcp_server')).map(toMcpServerItem);
  }

  async configure(
    teamId: string,
    agentId: string,
    input: McpServerConfigureDto,
  ): Promise<McpServerItemDto> {
    await this.integrations.requireAgent(teamId, agentId);
    const authType = input.auth_type ?? 'none';
    const authConfig = checkedAuthConfig(authType, input.auth_config ?? {});
    await this.integrations.assertCallable(input.server_url, 'server_url');
    const config: McpConfig = {
      name: input.name,
      server_url: input.server_url,
      transport: input.transport ?? 'streamable_http',
      auth_type: authType,
    };
    return this.writePhase.run(async () =>
      toMcpServerItem(
        await this.integrations.add(teamId, agentId, {
          family: 'mcp_server',
          type: 'mcp_server',
          name: input.name,
          description: null,
          status: 'pending',
          isConnected: false,
          config: { ...config },
          secrets: this.secretBox.sealJson(authConfig),
        }),
      ),
    );
  }

  delete(teamId: string, agentId: string, id: string): Promise<void> {
    return this.integrations.remove(teamId, agentId, id, 'mcp_server');
  }

  async listTools(teamId: string, agentId: string, id: string): Promise<ToolResponseDto[]> {
    await this.integrations.require(teamId, agentId, id, 'mcp_server');
    return (await this.actions.listForIntegration(teamId, id)).map(toToolResponse);
  }

  async test(teamId: string, agentId: string, id: string): Promise<McpTestResultDto> {
    const integration = await this.integrations.require(teamId, agentId, id, 'mcp_server');
    let result: McpTestResultDto;
    try {
      const tools = await this.client.listTools(await this.addressOf(integration));
      result = { success: true, message: 'Connected to the MCP server', tools_count: tools.length };
    } catch (error) {
      result = {
        success: false,
        message: 'Could not connect to the MCP server',
        error: describeFailure(error),
      };
    }
    return this.writePhase.run(async () => {
      await this.markReachable(integration, result.success);
      return result;
    });
  }

  /** Lists the server's tools and syncs them: new ones added, known ones refreshed, gone ones disabled. */
  async discover(teamId: string, agentId: string, id: string): Promise<McpDiscoverResultDto> {
    const integration = await this.integrations.require(teamId, agentId, id, 'mcp_server');
    const address = await this.addressOf(integration);
    let tools: McpTool[];
    try {
      tools = await this.client.listTools(address);
    } catch (error) {
      await this.markReachable(integration, false);
      throw Errors.upstream(
        `MCP server "${integration.name}" could not list its tools: ${describeFailure(error)}`,
      );
    }
    const result = await this.writePhase.run(() => this.syncTools(teamId, integration, tools));
    this.logger.log({ integration_id: integration.id, ...result }, 'MCP tools discovered');
    return result;
  }

  private async syncTools(
    teamId: string,
    integration: IntegrationEntity,
    tools: McpTool[],
  ): Promise<McpDiscoverResultDto> {
    await this.db.lockRow('integrations', integration.id);
    const existing = new Map(
      (await this.actions.listForIntegration(teamId, integration.id)).map((action) => [
        action.actionName,
        action,
      ]),
    );
    const now = new Date();
    const counts = { discovered: tools.length, created: 0, updated: 0, disabled: 0 };
    const created: ActionEntity[] = [];
    for (const tool of tools) {
      const fields = {
        name: tool.title ?? tool.name,
        description: tool.description,
        config: { input_schema: tool.inputSchema },
      };
      const known = existing.get(tool.name);
      existing.delete(tool.name);
      if (known) {
        const returning = !known.isAvailable;
        await this.actions.update(teamId, known.id, {
          ...fields,
          isAvailable: true,
          ...(returning ? { isEnabled: true } : {}),
          updatedAt: now,
        });
        counts.updated++;
      } else {
        const action = this.integrations.newAction(
          integration,
          {
            action_name: tool.name,
            name: fields.name,
            description: '',
            category: 'mcp',
            require_human_approval: false,
          },
          now,
          fields.config,
        );
        created.push({ ...action, description: tool.description });
      }
    }
    await this.actions.insert(created);
    counts.created = created.length;
    const disabled: string[] = [];
    for (const gone of existing.values()) {
      if (gone.isAvailable) {
        await this.actions.update(teamId, gone.id, {
          isAvailable: false,
          isEnabled: false,
          updatedAt: now,
        });
        disabled.push(gone.id);
      }
    }
    counts.disabled = disabled.length;
    await this.withdrawals.withdrawn(teamId, integration.agentId, disabled);
    await this.repository.update(teamId, integration.id, {
      status: 'connected',
      isConnected: true,
      updatedAt: now,
    });
    return counts;
  }

  private async addressOf(integration: IntegrationEntity): Promise<McpServerAddress> {
    const config = integration.config as unknown as McpConfig;
    await this.integrations.assertCallable(config.server_url, 'server_url');
    return {
      url: config.server_url,
      transport: config.transport,
      headers: authHeaders(
        config.auth_type,
        this.secretBox.openJson<AuthConfig>(integration.secrets),
      ),
    };
  }

  private async markReachable(integration: IntegrationEntity, reachable: boolean): Promise<void> {
    await this.repository.update(integration.teamId, integration.id, {
      status: reachable ? 'connected' : 'error',
      isConnected: reachable,
      updatedAt: new Date(),
    });
  }
}
