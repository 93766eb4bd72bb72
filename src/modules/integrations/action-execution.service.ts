// What other modules use to run an agent's actions: the integrations module's public surface for it.
export { ActionExecutors } from './actions/action-executors';
export type {
  ActionExecution,
  ActionParameters,
  ExecutableAction,
} from './actions/action-executor';
