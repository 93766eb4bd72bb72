import { Injectable } from '@nestjs/common';
import { McpToolExecutor } from '../mcp/mcp-tool.executor';
import {
  ActionExecution,
  ActionExecutor,
  ActionParameters,
  ExecutableAction,
} from './action-executor';

/** Every family's executor, chosen by the action's integration. */
@Injectable()
export class ActionExecutors {
  private readonly executors: ActionExecutor[];

  constructor(mcp: McpToolExecutor) {
    this.executors = [mcp];
  }

  parametersOf(target: ExecutableAction): ActionParameters {
    return this.executorFor(target)?.parametersOf(target) ?? { type: 'object', properties: {} };
  }

  execute(target: ExecutableAction, args: Record<string, unknown>): Promise<ActionExecution> {
    const executor = this.executorFor(target);
    if (!executor) {
      return Promise.resolve({
        ok: false,
        error: `Actions of ${target.integration.family} integrations cannot run yet`,
      });
    }
    return executor.execute(target, args);
  }

  private executorFor(target: ExecutableAction): ActionExecutor | undefined {
    return this.executors.find((executor) => executor.family === target.integration.family);
  }
}
