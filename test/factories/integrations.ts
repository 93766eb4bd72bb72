import { createAgent } from './agents';
import { API, startTestApp, TestApp } from './test-app';

export type IntegrationFamily = 'bimpeai' | 'custom_api' | 'mcp_server' | 'pipedream';

/** Configures an integration of `family` on the agent, e.g. `{ type: 'stripe', secret_key }` for bimpeai. */
export async function configureIntegration(
  t: TestApp,
  agentId: string,
  family: IntegrationFamily,
  body: Record<string, unknown>,
  key = t.key,
): Promise<Record<string, any>> {
  const res = await t
    .api(key)
    .post(`${API}/agents/${agentId}/integrations/${family}/configure`)
    .send(body)
    .expect(201);
  return res.body.data;
}

/** A tool of a custom API: a GET of a relative path unless `body` says otherwise. */
export async function createTool(
  t: TestApp,
  agentId: string,
  customApiId: string,
  body: Record<string, unknown> = { name: 'Tool', http_method: 'GET', url_template: '/t' },
  key = t.key,
): Promise<Record<string, any>> {
  const res = await t
    .api(key)
    .post(`${API}/agents/${agentId}/integrations/custom_api/${customApiId}/tools`)
    .send(body)
    .expect(201);
  return res.body.data;
}

export interface AgentIntegrations {
  t: TestApp;
  agentId: string;
  /** `…/agents/{agentId}/integrations` */
  base: string;
  post(path: string, body: unknown): ReturnType<ReturnType<TestApp['api']>['post']>;
  get(path: string): ReturnType<ReturnType<TestApp['api']>['get']>;
}

/**
 * A suite's app with one agent, and its integration routes by path below `base`: started before
 * the suite's tests, closed after them.
 */
export function useAgentIntegrations(env: Record<string, string> = {}): AgentIntegrations {
  const app = {} as AgentIntegrations;
  beforeAll(async () => {
    app.t = await startTestApp(env);
    app.agentId = (await createAgent(app.t)).id;
    app.base = `${API}/agents/${app.agentId}/integrations`;
    app.post = (path, body) =>
      app.t
        .api()
        .post(`${app.base}${path}`)
        .send(body as object);
    app.get = (path) => app.t.api().get(`${app.base}${path}`);
  });
  afterAll(() => app.t.close());
  return app;
}
