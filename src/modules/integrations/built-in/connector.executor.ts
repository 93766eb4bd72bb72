import { Injectable } from '@nestjs/common';
import { SecretBox } from '@/config/secret-box';
import { argumentProblems, givenArguments } from '../actions/action-arguments';
import {
  ActionExecution,
  ActionExecutor,
  ActionParameters,
  ExecutableAction,
} from '../actions/action-executor';
import { fillCustomerText, ownKeys } from '../actions/customer-text';
import { CatalogAction } from '../connector-actions';
import { Connector, CONNECTORS } from '../connector-catalog';
import { ProviderClient } from './providers/provider-client';
import { ActionRun } from './providers/provider';
import { PROVIDERS } from './providers/providers';

const NO_PARAMETERS: ActionParameters = { type: 'object', properties: {} };

const FIELD_LABELS = { token: 'API token', secret_key: 'secret key' };

/** The built-in connectors' actions, each run against its provider's documented API. */
@Injectable()
export class ConnectorExecutor implements ActionExecutor {
  readonly family = 'bimpeai' as const;

  constructor(
    private readonly client: ProviderClient,
    private readonly secretBox: SecretBox,
  ) {}

  parametersOf(target: ExecutableAction): ActionParameters {
    return this.catalogAction(target)?.parameters ?? NO_PARAMETERS;
  }

  async execute(
    target: ExecutableAction,
    rawArgs: Record<string, unknown>,
  ): Promise<ActionExecution> {
    const execution = await this.run(target, rawArgs);
    const catalogAction = this.catalogAction(target);
    const args = givenArguments(rawArgs);
    return {
      ...execution,
      customerText: execution.ok
        ? fillCustomerText(catalogAction?.success_message, [ownKeys(execution.result), args])
        : fillCustomerText(catalogAction?.error_message, [args]),
    };
  }

  private async run(
    target: ExecutableAction,
    rawArgs: Record<string, unknown>,
  ): Promise<ActionExecution> {
    const { action, integration } = target;
    const connector = CONNECTORS[integration.type as keyof typeof CONNECTORS] as
      Connector | undefined;
    const catalogAction = this.catalogAction(target);
    if (!connector || !catalogAction) {
      return { ok: false, error: `${action.name} is not an action this server knows` };
    }
    if (connector.auth === 'oauth') {
      return {
        ok: false,
        error: integration.isConnected
          ? `${connector.name} actions cannot run on this server yet`
          : `${connector.name} is not connected yet: finish the connection in the dashboard`,
      };
    }
    const secrets = this.secretBox.openJson<Record<string, string>>(integration.secrets);
    const missing = connector.secretFields.find((field) => !secrets[field]);
    const provider = PROVIDERS[connector.type];
    if (missing || !provider) {
      return {
        ok: false,
        error: `${connector.name} is not connected yet: add its ${FIELD_LABELS[missing ?? 'token']} in the dashboard`,
      };
    }
    const problems = argumentProblems(this.parametersOf(target), rawArgs);
    if (problems.length > 0) {
      return { ok: false, error: `${action.name} needs other arguments: ${problems.join('; ')}` };
    }
    const run = provider.actions[catalogAction.action_name] as ActionRun | undefined;
    if (!run) {
      return {
        ok: false,
        error: `${connector.name} cannot ${catalogAction.name.toLowerCase()} here`,
      };
    }
    return run(
      { client: this.client, secrets, config: integration.config },
      givenArguments(rawArgs),
    );
  }

  private catalogAction({ action, integration }: ExecutableAction): CatalogAction | undefined {
    const connector = CONNECTORS[integration.type as keyof typeof CONNECTORS] as
      Connector | undefined;
    return connector?.actions.find((candidate) => candidate.action_name === action.actionName);
  }
}
