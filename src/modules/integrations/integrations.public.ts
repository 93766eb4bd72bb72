// The integrations module's public surface beside its services: running an agent's actions.
export { ActionExecutors } from './actions/action-executors';
export type {
  ActionExecution,
  ActionParameters,
  ExecutableAction,
} from './actions/action-executor';
