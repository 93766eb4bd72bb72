import { SetMetadata } from '@nestjs/common';

export const OPEN_TO_AGENT_LIMITED_KEYS = 'console:open-to-agent-limited-keys';

/**
 * A route that takes no agent in its path, yet serves a key limited to some agents because it
 * narrows what it answers to the key's agents (a team list such as `GET /agents`). Without it,
 * such a route is team-wide and refused to those keys (see AgentLimitGuard).
 */
export const OpenToAgentLimitedKeys = () => SetMetadata(OPEN_TO_AGENT_LIMITED_KEYS, true);
