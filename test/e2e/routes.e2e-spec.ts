import { API, startTestApp, TestApp } from '../factories/test-app';
import { Route, routesOf } from '../support/routes';

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

  it('keeps @Public() to health probes, the unknown-route fallback, the ticket-authenticated streams, the web chat and the channel webhooks', () => {
    const publicRoutes = routes.filter((route) => route.isPublic).map((route) => route.path);
    for (const path of publicRoutes) {
      expect(path).toMatch(
        /^\/(healthz|readyz|widget\.js)$|\{\*path\}$|\/stream$|^\/api\/v1\/(widget|channels)\//,
      );
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
