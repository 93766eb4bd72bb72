import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteMetadata } from '@/common/http/route-metadata';
import { ApiError } from '@/common/http/api-error';
import { Public } from '@/common/http/public.decorator';
import { RequireScopes } from './require-scopes.decorator';
import { ScopeGuard } from './scope.guard';

class Routes {
  @RequireScopes('workflows:write')
  scoped(): void {}

  @Public()
  open(): void {}

  unscoped(): void {}
}

function contextFor(handler: keyof Routes, scopes: string[]): ExecutionContext {
  return {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({
      getRequest: () => ({ principal: { keyId: 'k', teamId: 't', scopes, agentIds: null } }),
    }),
  } as unknown as ExecutionContext;
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as ApiError).code;
  }
}

describe('ScopeGuard', () => {
  const guard = new ScopeGuard(new RouteMetadata(new Reflector()));

  it('lets a key with the scope, or with *, through', () => {
    expect(guard.canActivate(contextFor('scoped', ['workflows:write']))).toBe(true);
    expect(guard.canActivate(contextFor('scoped', ['*']))).toBe(true);
  });

  it('refuses a key without the scope with insufficient_scope', () => {
    expect(codeOf(() => guard.canActivate(contextFor('scoped', ['workflows:read'])))).toBe(
      'insufficient_scope',
    );
  });

  it('refuses every key on a route that declares no scope', () => {
    expect(codeOf(() => guard.canActivate(contextFor('unscoped', ['*'])))).toBe('forbidden');
  });

  it('lets public routes through', () => {
    expect(guard.canActivate(contextFor('open', []))).toBe(true);
  });
});
