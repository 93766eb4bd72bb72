import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '@/common/http/api-error';
import { Public } from '@/common/http/public.decorator';
import { RouteMetadata } from '@/common/http/route-metadata';
import { OpenToAgentLimitedKeys } from './agent-limit.decorator';
import { AgentLimitGuard } from './agent-limit.guard';
import { RequireScopes } from './require-scopes.decorator';

const OWN = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const OTHER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

class Routes {
  @RequireScopes('agents:read')
  underAgent(): void {}

  @RequireScopes('agents:read')
  @OpenToAgentLimitedKeys()
  narrowedList(): void {}

  @RequireScopes('workflows:read')
  readWorkflows(): void {}

  @RequireScopes('workflows:write')
  writeWorkflows(): void {}

  @Public()
  stream(): void {}
}

function contextFor(
  handler: keyof Routes,
  agentIds: string[] | null,
  params: Record<string, string> = {},
): ExecutionContext {
  const principal = { keyId: 'k', teamId: 't', scopes: ['*'], agentIds };
  return {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => ({ principal, params }) }),
  } as unknown as ExecutionContext;
}

function outcomeOf(run: () => unknown): string {
  try {
    run();
    return 'allowed';
  } catch (error) {
    return `${(error as ApiError).getStatus()} ${(error as ApiError).code}`;
  }
}

describe('AgentLimitGuard', () => {
  const guard = new AgentLimitGuard(new RouteMetadata(new Reflector()));
  const check = (...args: Parameters<typeof contextFor>) =>
    outcomeOf(() => guard.canActivate(contextFor(...args)));

  it('lets a key of every agent through everywhere', () => {
    expect(check('underAgent', null, { agentId: OTHER })).toBe('allowed');
    expect(check('writeWorkflows', null)).toBe('allowed');
  });

  it("answers 404 under any agent but the key's own, whatever the id's case or form", () => {
    expect(check('underAgent', [OWN], { agentId: OWN })).toBe('allowed');
    expect(check('underAgent', [OWN], { agentId: OWN.toUpperCase() })).toBe('allowed');
    expect(check('underAgent', [OWN], { agentId: OTHER })).toBe('404 not_found');
    expect(check('underAgent', [OWN], { agentId: 'not-an-id' })).toBe('404 not_found');
    expect(check('underAgent', [], { agentId: OWN })).toBe('404 not_found');
  });

  it('refuses team-wide routes with 403, but reads workflows and lists narrowed to its agents', () => {
    expect(check('writeWorkflows', [OWN])).toBe('403 forbidden');
    expect(check('underAgent', [OWN])).toBe('403 forbidden');
    expect(check('readWorkflows', [OWN])).toBe('allowed');
    expect(check('narrowedList', [OWN])).toBe('allowed');
  });

  it('leaves public routes (the ticket-authenticated stream) to their own checks', () => {
    expect(check('stream', [OWN], { agentId: OTHER })).toBe('allowed');
  });
});
