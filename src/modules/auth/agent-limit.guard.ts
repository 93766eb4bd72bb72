import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Errors } from '@/common/http/api-error';
import { IS_PUBLIC } from '@/common/http/public.decorator';
import { RouteMetadata } from '@/common/http/route-metadata';
import { canonicalId, isId } from '@/common/ids';
import { OPEN_TO_AGENT_LIMITED_KEYS } from './agent-limit.decorator';
import { REQUIRED_SCOPES } from './require-scopes.decorator';
import { Scope } from './scopes';

/** The body of an agent that does not exist: another agent is not there for a limited key. */
const AGENT_NOT_FOUND = 'Agent not found';
const TEAM_WIDE =
  'This key is limited to some agents: it cannot use team-wide routes (only those of its agents, ' +
  'and reading workflows)';

/**
 * Keeps a key limited to some agents (docs/api.md §2) to those agents: any route under
 * `/agents/:agentId` of another agent is 404, as if that agent did not exist (its conversations,
 * messages, stream tickets, runs, knowledge, integrations and calls with it); a route without an
 * agent is team-wide and 403, unless it reads workflows or narrows its answer to the key's agents
 * (`@OpenToAgentLimitedKeys`). Runs after the scope guard, so a missing scope is told first.
 */
@Injectable()
export class AgentLimitGuard implements CanActivate {
  constructor(private readonly metadata: RouteMetadata) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.metadata.get<boolean>(IS_PUBLIC, context)) {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request>();
    const agentIds = req.principal?.agentIds;
    if (!agentIds) {
      return true;
    }
    const agentId = (req.params as Record<string, string | undefined>).agentId;
    if (agentId !== undefined) {
      if (!isId(agentId) || !agentIds.includes(canonicalId(agentId))) {
        throw Errors.notFound(AGENT_NOT_FOUND);
      }
      return true;
    }
    if (this.metadata.get<boolean>(OPEN_TO_AGENT_LIMITED_KEYS, context)) {
      return true;
    }
    const required = this.metadata.get<Scope[]>(REQUIRED_SCOPES, context) ?? [];
    if (required.length > 0 && required.every((scope) => scope === 'workflows:read')) {
      return true;
    }
    throw Errors.forbidden(TEAM_WIDE);
  }
}
