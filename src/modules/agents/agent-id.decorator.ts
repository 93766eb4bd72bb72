import { IdParam } from '@/common/http/parse-id.pipe';

/** The agent of a route under `agents/:agentId`. */
export const AgentId = (): ParameterDecorator => IdParam('agentId');
