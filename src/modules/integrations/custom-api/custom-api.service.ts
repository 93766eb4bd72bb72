import { Injectable } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { Errors } from '@/common/http/api-error';
import { WritePhase } from '@/common/idempotency/write-phase';
import { Database } from '@/database/database.service';
import { isUniqueViolation } from '@/database/errors';
import { ActionWithdrawals } from '../action-withdrawals.service';
import { ActionsRepository } from '../actions/actions.repository';
import { checkedAuthConfig } from '../auth-headers';
import { CustomApiConfigureDto } from '../dto/custom-api-configure.dto';
import { CustomApiItemDto, toCustomApiItem } from '../dto/custom-api-response.dto';
import { ToolCreateDto } from '../dto/tool-create.dto';
import { DEFAULT_TOOL_CATEGORY, ToolResponseDto, toToolResponse } from '../dto/tool-response.dto';
import { IntegrationsService } from '../integrations.service';
import { toActionName } from '../action-name';
import { mappingProblems } from './response-mapping';
import { paramProblems } from './tool-parameters';
import { HOST_PLACEHOLDER_PROBLEM, placeholderInHost, toolUrl } from './tool-url';

export const MAX_TOOLS_PER_INTEGRATION = 200;
const TOOL_SETTINGS = [
  'url_params',
  'body_params',
  'headers_template',
  'body_template',
  'response_mapping',
] as const;

/** Custom HTTP APIs and the tools (actions) the agent calls on them. */
@Injectable()
export class CustomApiService {
  constructor(
    private readonly db: Database,
    private readonly writePhase: WritePhase,
    private readonly integrations: IntegrationsService,
    private readonly actions: ActionsRepository,
    private readonly withdrawals: ActionWithdrawals,
    private readonly secretBox: SecretBox,
  ) {}

  async list(teamId: string, agentId: string): Promise<CustomApiItemDto[]> {
    return (await this.integrations.listFamily(teamId, agentId, 'custom_api')).map(toCustomApiItem);
  }

  async configure(
    teamId: string,
    agentId: string,
    input: CustomApiConfigureDto,
  ): Promise<CustomApiItemDto> {
    await this.integrations.requireAgent(teamId, agentId);
    const authType = input.auth_type ?? 'none';
    const authConfig = checkedAuthConfig(authType, input.auth_config ?? {});
    await this.integrations.assertCallable(input.base_url, 'base_url');
    await this.integrations.assertCallable(input.test_endpoint, 'test_endpoint');
    return this.writePhase.run(async () =>
      toCustomApiItem(
        await this.integrations.add(teamId, agentId, {
          family: 'custom_api',
          type: 'custom_api',
          name: input.name,
          description: input.description ?? null,
          status: 'connected',
          isConnected: true,
          config: {
            name: input.name,
            description: input.description ?? null,
            base_url: input.base_url ?? null,
            auth_type: authType,
            test_endpoint: input.test_endpoint ?? null,
          },
          secrets: this.secretBox.sealJson(authConfig),
        }),
      ),
    );
  }

  delete(teamId: string, agentId: string, id: string): Promise<void> {
    return this.integrations.remove(teamId, agentId, id, 'custom_api');
  }

  async listTools(teamId: string, agentId: string, id: string): Promise<ToolResponseDto[]> {
    await this.integrations.require(teamId, agentId, id, 'custom_api');
    return (await this.actions.listForIntegration(teamId, id)).map(toToolResponse);
  }

  async addTool(
    teamId: string,
    agentId: string,
    id: string,
    input: ToolCreateDto,
  ): Promise<ToolResponseDto> {
    const integration = await this.integrations.require(teamId, agentId, id, 'custom_api');
    const problems = [
      ...paramProblems('url_params', input.url_params),
      ...paramProblems('body_params', input.body_params),
      ...mappingProblems(input.response_mapping),
    ];
    if (problems.length > 0) {
      throw Errors.validation(problems);
    }
    const authType = input.auth_type ?? 'none';
    const authConfig = checkedAuthConfig(authType, input.auth_config ?? {});
    const url = toolUrl(integration.config.base_url as string | null, input.url_template);
    if (!url) {
      throw Errors.validation(['url_template: must be a full URL, since this API has no base_url']);
    }
    // The API's credentials go to the host: an argument (the model) may not choose it.
    if (placeholderInHost(url)) {
      throw Errors.validation([`url_template: ${HOST_PLACEHOLDER_PROBLEM}`]);
    }
    await this.integrations.assertCallable(url, 'url_template');
    const action = this.integrations.newAction(
      integration,
      {
        action_name: toActionName(input.name),
        name: input.name,
        description: input.description ?? '',
        category: input.category ?? DEFAULT_TOOL_CATEGORY,
        require_human_approval: input.require_human_approval ?? false,
      },
      new Date(),
      {
        http_method: input.http_method,
        url_template: input.url_template,
        ...Object.fromEntries(
          TOOL_SETTINGS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]),
        ),
        auth_type: authType,
        timeout: input.timeout ?? 30,
      },
    );
    action.description = input.description ?? null;
    action.secrets = this.secretBox.sealJson(authConfig);
    try {
      return await this.writePhase.run(async () => {
        await this.db.lockRow('integrations', integration.id);
        if (
          (await this.actions.countForIntegration(teamId, integration.id)) >=
          MAX_TOOLS_PER_INTEGRATION
        ) {
          throw Errors.conflict(`An API can have at most ${MAX_TOOLS_PER_INTEGRATION} tools`);
        }
        await this.actions.insert([action]);
        return toToolResponse(action);
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw Errors.conflict(`This API already has a tool named ${action.actionName}`);
      }
      throw error;
    }
  }

  async deleteTool(teamId: string, agentId: string, id: string, toolId: string): Promise<void> {
    await this.integrations.require(teamId, agentId, id, 'custom_api');
    await this.db.transaction(async () => {
      if (!(await this.actions.delete(teamId, id, toolId))) {
        throw Errors.notFound('Tool not found');
      }
      await this.withdrawals.withdrawn(teamId, agentId, [toolId]);
    });
  }
}
