import { Injectable } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import {
  ActionExecution,
  ActionExecutor,
  ActionParameters,
  ExecutableAction,
} from '../actions/action-executor';
import { plainText } from '../actions/customer-text';
import { authHeaders } from '../auth-headers';
import { AuthConfig, AuthType } from '../dto/auth-config.dto';
import { McpTransport } from '../dto/mcp-server-configure.dto';
import { describeError, McpClient, McpToolResult } from './mcp-client';

interface McpServerConfig {
  server_url: string;
  transport: McpTransport;
  auth_type: AuthType;
}

/** A tool's input schema as discovered, reduced to what a model's tool definition takes. */
function parametersFrom(schema: unknown): ActionParameters {
  const object = (schema ?? {}) as Partial<ActionParameters>;
  const properties =
    object.properties && typeof object.properties === 'object' ? object.properties : {};
  return {
    type: 'object',
    properties,
    ...(Array.isArray(object.required) && object.required.length > 0
      ? { required: object.required.filter((key) => typeof key === 'string') }
      : {}),
  };
}

function textOf(result: McpToolResult): string {
  return result.content
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Runs an MCP server's tool with `tools/call`, over the server's transport and with its auth. */
@Injectable()
export class McpToolExecutor implements ActionExecutor {
  readonly family = 'mcp_server' as const;

  constructor(
    private readonly client: McpClient,
    private readonly secretBox: SecretBox,
    private readonly outbound: OutboundHttp,
  ) {}

  parametersOf({ action }: ExecutableAction): ActionParameters {
    return parametersFrom(action.config.input_schema);
  }

  async execute(
    { action, integration }: ExecutableAction,
    args: Record<string, unknown>,
  ): Promise<ActionExecution> {
    const config = integration.config as unknown as McpServerConfig;
    const refusal = await this.outbound.refusal(config.server_url);
    if (refusal) {
      return { ok: false, error: `The MCP server URL ${refusal}` };
    }
    let result: McpToolResult;
    try {
      result = await this.client.callTool(
        {
          url: config.server_url,
          transport: config.transport,
          headers: authHeaders(
            config.auth_type,
            this.secretBox.openJson<AuthConfig>(integration.secrets),
          ),
        },
        action.actionName,
        args,
      );
    } catch (error) {
      return {
        ok: false,
        error: `MCP server "${integration.name}" failed: ${describeError(error).slice(0, 500)}`,
      };
    }
    const text = textOf(result);
    if (result.isError) {
      return { ok: false, error: text || `The tool ${action.actionName} reported an error` };
    }
    return { ok: true, result: result.structuredContent ?? text, customerText: plainText(text) };
  }
}
