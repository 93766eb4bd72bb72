import { ActionEntity } from '../entities/action.entity';
import { IntegrationEntity, IntegrationFamily } from '../entities/integration.entity';

/** A JSON Schema object describing an action's arguments (what a model's tool call must send). */
export interface ActionParameters {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties?: boolean;
}

/** One action together with the integration that runs it (secrets still sealed). */
export interface ExecutableAction {
  action: ActionEntity;
  integration: IntegrationEntity;
}

/**
 * What came back: `result` goes to the model and into the run; `error` is said to a person (the
 * team). `customerText`, when the action has one, is what the customer is told of the outcome.
 */
export type ActionExecution =
  | { ok: true; result: unknown; customerText?: string | null }
  | { ok: false; error: string; customerText?: string | null };

/**
 * Runs the actions of one integration family. Executors call out through OutboundHttp (or the
 * MCP client), never inside a database transaction, and turn every failure into `ok: false`
 * with an error a person can act on instead of throwing.
 */
export interface ActionExecutor {
  readonly family: IntegrationFamily;
  parametersOf(target: ExecutableAction): ActionParameters;
  execute(target: ExecutableAction, args: Record<string, unknown>): Promise<ActionExecution>;
}
