import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '@/common/http/public.decorator';
import { REQUIRED_SCOPES } from '@/modules/auth/require-scopes.decorator';
import { API, startTestApp, TestApp } from '../factories/test-app';

interface Route {
  method: string;
  path: string;
  isPublic: boolean;
  scopes: string[] | undefined;
  handler: string;
}

const EXCLUDED_FROM_PREFIX = new Set(['/healthz', '/readyz']);

function joinPath(...parts: Array<string | undefined>): string {
  const joined = parts
    .filter((part): part is string => Boolean(part) && part !== '/')
    .map((part) => part.replace(/^\/|\/$/g, ''))
    .join('/');
  return `/${joined}`;
}

/** Every route the application serves, read from the controllers' own metadata. */
function routesOf(t: TestApp): Route[] {
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  const routes: Route[] = [];
  const controllers = [...t.app.get(ModulesContainer).values()].flatMap((module) => [
    ...module.controllers.values(),
  ]);
  for (const wrapper of controllers) {
    const controller = wrapper.metatype as new (...args: unknown[]) => unknown;
    const prototype = controller.prototype as Record<string, (...args: unknown[]) => unknown>;
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || method === undefined) {
        continue;
      }
      const local = joinPath(base, path);
      routes.push({
        method: RequestMethod[method].toLowerCase(),
        path: EXCLUDED_FROM_PREFIX.has(local) ? local : joinPath(API, local),
        isPublic: Boolean(reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller])),
        scopes: reflector.getAllAndOverride<string[]>(REQUIRED_SCOPES, [handler, controller]),
        handler: `${controller.name}.${name}`,
      });
    }
  }
  return routes;
}

describe('routes', () => {
  let t: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    t = await startTestApp();
    routes = routesOf(t);
  });
  afterAll(() => t.close());

  it('finds the routes (the sweep below is not vacuous)', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.map((route) => `${route.method} ${route.path}`)).toContain(
      `post ${API}/workflows`,
    );
  });

  it('gives every route either a scope or an explicit @Public()', () => {
    const unguarded = routes
      .filter((route) => !route.isPublic && !route.scopes?.length)
      .map((r) => r.handler);
    expect(unguarded).toEqual([]);
  });

  it('keeps @Public() to health probes, the unknown-route fallback and the ticket-authenticated stream', () => {
    const publicRoutes = routes.filter((route) => route.isPublic).map((route) => route.path);
    for (const path of publicRoutes) {
      expect(path).toMatch(/^\/(healthz|readyz)$|\{\*path\}$|\/stream$/);
    }
  });

  it('documents every route with its security, parameters and error responses', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    for (const route of routes.filter((r) => !r.path.endsWith('{*path}'))) {
      const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[openApiPath]?.[route.method];
      expect({ route: route.handler, documented: Boolean(operation) }).toEqual({
        route: route.handler,
        documented: true,
      });
      if (route.isPublic) {
        continue;
      }
      expect(operation.security).toEqual(
        expect.arrayContaining([{ bearer: [] }, { 'api-key': [] }]),
      );
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['401', '403', '429']),
      );
      expect(operation.responses['403'].description).toContain(route.scopes![0]);
      const successCodes = Object.keys(operation.responses).filter((code) => /^2|^501$/.test(code));
      expect({ route: route.handler, successCodes: successCodes.length > 0 }).toEqual({
        route: route.handler,
        successCodes: true,
      });
    }
  });
});
