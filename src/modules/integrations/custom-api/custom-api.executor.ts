import { Injectable } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { OutboundHttp } from '@/common/outbound/outbound-http';
import { argumentProblems, givenArguments } from '../actions/action-arguments';
import {
  ActionExecution,
  ActionExecutor,
  ActionParameters,
  ExecutableAction,
} from '../actions/action-executor';
import { httpCall, masked, parsedBody, shortBody } from '../actions/http-call';
import { authHeaders } from '../auth-headers';
import { AuthConfig, AuthType } from '../dto/auth-config.dto';
import { mappedCustomerText, pickResult, ResponseMapping } from './response-mapping';
import { toolSchema } from './tool-parameters';
import { renderToolRequest, TemplateError, ToolRequest } from './tool-template';

const DEFAULT_TOOL_TIMEOUT_S = 30;
/** A tool runs while a customer waits for the reply: its own `timeout` is honoured up to this. */
const MAX_TOOL_TIMEOUT_S = 60;

/** Custom API tools: one HTTP call each, built from the tool's templates and the arguments. */
@Injectable()
export class CustomApiExecutor implements ActionExecutor {
  readonly family = 'custom_api' as const;

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly secretBox: SecretBox,
  ) {}

  parametersOf(target: ExecutableAction): ActionParameters {
    return toolSchema(target.action.config);
  }

  async execute(
    target: ExecutableAction,
    rawArgs: Record<string, unknown>,
  ): Promise<ActionExecution> {
    const { action, integration } = target;
    const api = integration.name;
    const problems = argumentProblems(this.parametersOf(target), rawArgs);
    if (problems.length > 0) {
      return { ok: false, error: `${action.name} needs other arguments: ${problems.join('; ')}` };
    }
    const args = givenArguments(rawArgs);
    const mapping = action.config.response_mapping as ResponseMapping | null | undefined;
    let request: ToolRequest;
    let auth: Record<string, string>;
    try {
      request = renderToolRequest(
        (integration.config.base_url as string | null | undefined) ?? null,
        action.config,
        args,
      );
      auth = this.authOf(target);
    } catch (error) {
      const reason =
        error instanceof TemplateError ? error.message : 'its auth settings are invalid';
      return {
        ok: false,
        error: `${action.name} could not be called: ${reason}`,
        customerText: mappedCustomerText(mapping, null, args, false),
      };
    }
    const timeoutS = Math.min(
      Number(action.config.timeout) || DEFAULT_TOOL_TIMEOUT_S,
      MAX_TOOL_TIMEOUT_S,
    );
    const secrets = Object.values(auth);
    const outcome = await httpCall(this.outbound, {
      ...request,
      headers: { ...request.headers, ...auth },
      timeoutMs: timeoutS * 1000,
      secrets,
    });
    if (outcome.kind === 'failed') {
      return {
        ok: false,
        error: `${api} ${outcome.reason}`,
        customerText: mappedCustomerText(mapping, null, args, false),
      };
    }
    if (outcome.status < 200 || outcome.status >= 300) {
      const detail =
        outcome.status >= 300 && outcome.status < 400
          ? `a redirect to ${outcome.location ?? 'elsewhere'}, which is not followed`
          : shortBody(masked(outcome.text, secrets));
      return {
        ok: false,
        error: `${api} answered ${outcome.status}${detail ? `: ${detail}` : ''}`,
        customerText: mappedCustomerText(
          mapping,
          parsedBody(masked(outcome.text, secrets)),
          args,
          false,
        ),
      };
    }
    // An API that quotes the key it was sent must not hand it on to the model or the run's result.
    const answer = parsedBody(masked(outcome.text, secrets));
    return {
      ok: true,
      result: pickResult(answer, mapping),
      customerText: mappedCustomerText(mapping, answer, args, true),
    };
  }

  /** The tool's own auth when it has one, else its API's. */
  private authOf({ action, integration }: ExecutableAction): Record<string, string> {
    const toolAuth = (action.config.auth_type as AuthType | undefined) ?? 'none';
    if (toolAuth !== 'none') {
      return authHeaders(toolAuth, this.secretBox.openJson<AuthConfig>(action.secrets));
    }
    const apiAuth = (integration.config.auth_type as AuthType | undefined) ?? 'none';
    return authHeaders(apiAuth, this.secretBox.openJson<AuthConfig>(integration.secrets));
  }
}
