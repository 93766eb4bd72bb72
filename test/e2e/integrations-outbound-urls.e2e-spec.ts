import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';

describe('outbound URLs (server-side request forgery)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
    base = `${API}/agents/${(await createAgent(t)).id}/integrations`;
  });
  afterAll(() => t.close());

  const refused = [
    'http://127.0.0.1:8080/mcp',
    'http://localhost/mcp',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.5/',
    'http://192.168.1.10/',
    'http://172.16.0.1/',
    'http://[::1]/mcp',
    'http://[fd00:ec2::254]/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::169.254.169.254]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://192.0.2.1/',
  ];

  it.each(refused)('refuses MCP server_url %s with 400 validation_error', async (url) => {
    const res = await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: url })
      .expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.message[0]).toMatch(/^server_url: /);
  });

  it('refuses private custom API base_url, test_endpoint and absolute tool URLs', async () => {
    const base_url = await t
      .api()
      .post(`${base}/custom_api/configure`)
      .send({ name: 'a', base_url: 'http://127.0.0.1:9000' })
      .expect(400);
    expect(base_url.body.message[0]).toMatch(/^base_url: must not point to a private/);
    const test_endpoint = await t
      .api()
      .post(`${base}/custom_api/configure`)
      .send({ name: 'a', test_endpoint: 'http://169.254.169.254/' })
      .expect(400);
    expect(test_endpoint.body.message[0]).toMatch(/^test_endpoint: /);
    const api = await t
      .api()
      .post(`${base}/custom_api/configure`)
      .send({ name: 'a', base_url: 'http://93.184.216.34' })
      .expect(201);
    const tool = await t
      .api()
      .post(`${base}/custom_api/${api.body.data.id}/tools`)
      .send({ name: 't', http_method: 'GET', url_template: 'http://10.1.1.1/x' })
      .expect(400);
    expect(tool.body.message[0]).toMatch(/^url_template: /);
  });

  it('refuses a host that does not resolve', async () => {
    const res = await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: 'http://no-such-host.invalid/mcp' })
      .expect(400);
    expect(res.body.message).toEqual(['server_url: host could not be resolved']);
  });

  it('accepts a public address', async () => {
    await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: 'https://93.184.216.34/mcp' })
      .expect(201);
  });
});

describe('outbound URLs with private networks allowed', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    base = `${API}/agents/${(await createAgent(t)).id}/integrations`;
  });
  afterAll(() => t.close());

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::169.254.169.254]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
  ])('still refuses the link-local or metadata target %s', async (url) => {
    const res = await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: url })
      .expect(400);
    expect(res.body.message).toEqual([
      'server_url: must not point to a private, loopback, link-local or metadata address',
    ]);
  });

  it('lets a loopback target through', async () => {
    await t
      .api()
      .post(`${base}/mcp_server/configure`)
      .send({ name: 'm', server_url: 'http://127.0.0.1:9/mcp' })
      .expect(201);
  });
});
