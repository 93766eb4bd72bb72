import { API, TestApp } from './test-app';

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
