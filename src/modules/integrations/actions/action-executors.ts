import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { ConnectorExecutor } from '../built-in/connector.executor';
import { CustomApiExecutor } from '../custom-api/custom-api.executor';
import { IntegrationFamily } from '../entities/integration.entity';
import { McpToolExecutor } from '../mcp/mcp-tool.executor';
import {
  ActionExecution,
  ActionExecutor,
  ActionParameters,
  ExecutableAction,
} from './action-executor';
import { boundedResult, boundedText, MAX_ERROR_CHARS } from './action-result';
import { SecretMask } from './secret-mask';
import { describeError } from '../mcp/mcp-client';

const NO_PARAMETERS: ActionParameters = { type: 'object', properties: {} };

/** Why a family without an executor cannot run an action, said to the person who asked. */
const NOT_RUN_HERE: Partial<Record<IntegrationFamily, string>> = {
  pipedream: "Pipedream actions run in Pipedream's own workflows, not from this agent",
};

/**
 * The executor of each integration family: what the action runner asks to run an action. Every
 * execution leaves here with the integration's secrets masked and its size capped, whichever
 * executor made it: what it holds is stored, streamed, sent to the model and put in events.
 */
@Injectable()
export class ActionExecutors {
  private readonly logger = new Logger(ActionExecutors.name);
  private readonly byFamily: Map<IntegrationFamily, ActionExecutor>;

  constructor(
    customApi: CustomApiExecutor,
    connectors: ConnectorExecutor,
    mcp: McpToolExecutor,
    private readonly secretBox: SecretBox,
  ) {
    const executors: ActionExecutor[] = [customApi, connectors, mcp];
    this.byFamily = new Map(executors.map((executor) => [executor.family, executor]));
  }

  for(family: IntegrationFamily): ActionExecutor | null {
    return this.byFamily.get(family) ?? null;
  }

  parametersOf(target: ExecutableAction): ActionParameters {
    return this.for(target.integration.family)?.parametersOf(target) ?? NO_PARAMETERS;
  }

  /** Runs the action; never throws: an executor's own failure is a failed execution too. */
  async execute(target: ExecutableAction, args: Record<string, unknown>): Promise<ActionExecution> {
    const family = target.integration.family;
    const executor = this.for(family);
    if (!executor) {
      return {
        ok: false,
        error: NOT_RUN_HERE[family] ?? `${target.integration.name} actions cannot run here`,
      };
    }
    try {
      return this.guarded(target, await executor.execute(target, args));
    } catch (error) {
      this.logger.error(
        { action_id: target.action.id, family, error: describeError(error) },
        'An action executor failed',
      );
      return { ok: false, error: `${target.action.name} could not run: an error on our side` };
    }
  }

  /** The execution with every secret of the action and its integration masked, and capped. */
  private guarded(target: ExecutableAction, execution: ActionExecution): ActionExecution {
    const mask = new SecretMask([
      this.secretBox.openJson(target.integration.secrets),
      this.secretBox.openJson(target.action.secrets),
    ]);
    const said = execution.customerText
      ? { customerText: boundedText(mask.text(execution.customerText), MAX_ERROR_CHARS) }
      : {};
    return execution.ok
      ? { ok: true, result: boundedResult(mask.value(execution.result)), ...said }
      : { ok: false, error: boundedText(mask.text(execution.error), MAX_ERROR_CHARS), ...said };
  }
}
