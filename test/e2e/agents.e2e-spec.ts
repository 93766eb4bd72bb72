import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createAgent } from '../factories/agents';
import { createWorkflow, FULL_WORKFLOW } from '../factories/workflows';
import { configureIntegration, createTool } from '../factories/integrations';
import { createKnowledgeBase } from '../factories/knowledge-bases';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const AGENT_FIELDS = [
  'id',
  'name',
  'description',
  'language',
  'persona',
  'workflow_id',
  'timezone',
  'logo',
  'business_name',
  'business_address',
  'business_email',
  'business_description',
  'test_channel_code',
  'status',
  'status_reason',
  'escalation_email',
  'handoff_pauses_ai',
  'operator_reply_pauses_ai',
  'created_at',
  'updated_at',
].sort();

describe('agents', () => {
  let t: TestApp;
  let other: TeamKey;

  beforeAll(async () => {
    t = await startTestApp({
      TEST_WHATSAPP_NUMBER: '+2348000000000',
      TEST_WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      TEST_WHATSAPP_ACCESS_TOKEN: 'EAAagentsspec',
      TEST_WHATSAPP_APP_SECRET: 'agents-spec-secret',
      TEST_WHATSAPP_VERIFY_TOKEN: 'agents-spec-verify',
      TEST_MESSENGER_PAGE: 'console.test',
    });
    other = await t.createKey('other-team', ['*']);
  });
  afterAll(() => t.close());

  describe('POST /agents', () => {
    it('creates an agent in development with a test code, and returns its full workflow', async () => {
      const workflow = await createWorkflow(t, FULL_WORKFLOW);
      const res = await t
        .api()
        .post(`${API}/agents`)
        .send({
          workflow_id: workflow.id,
          name: 'Ada',
          description: 'Front desk',
          language: 'en',
          persona: 'friendly',
          timezone: 'Africa/Lagos',
          logo: 'https://example.com/logo.png',
          business_name: 'Ada Foods',
          business_address: '1 Marina, Lagos',
          business_email: 'hello@ada.example',
          business_description: 'Groceries',
          escalation_email: 'owner@ada.example',
        })
        .expect(201);
      expect(res.body.message).toBe('Agent created successfully');
      const { workflow: embedded, ...agent } = res.body.data;
      expect(Object.keys(agent).sort()).toEqual(AGENT_FIELDS);
      expect(agent).toEqual({
        id: expect.any(String),
        name: 'Ada',
        description: 'Front desk',
        language: 'en',
        persona: 'friendly',
        workflow_id: workflow.id,
        timezone: 'Africa/Lagos',
        logo: 'https://example.com/logo.png',
        business_name: 'Ada Foods',
        business_address: '1 Marina, Lagos',
        business_email: 'hello@ada.example',
        business_description: 'Groceries',
        test_channel_code: expect.stringMatching(/^[A-Z2-9]{8}$/),
        status: 'development',
        status_reason: null,
        escalation_email: 'owner@ada.example',
        handoff_pauses_ai: true,
        operator_reply_pauses_ai: true,
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
      });
      expect(embedded).toEqual(workflow);
    });

    it('fills unset optional fields with null', async () => {
      const agent = await createAgent(t);
      for (const field of [
        'language',
        'persona',
        'timezone',
        'logo',
        'business_name',
        'business_address',
        'business_email',
        'business_description',
        'escalation_email',
      ]) {
        expect(agent[field]).toBeNull();
      }
    });

    it('accepts only an http(s) URL as logo, on create and on update', async () => {
      const workflow = await createWorkflow(t);
      const body = { workflow_id: workflow.id, name: 'x', description: 'y' };
      for (const logo of [
        'javascript:alert(1)',
        'data:image/png;base64,AAAA',
        '//cdn.example/x.png',
      ]) {
        const res = await t
          .api()
          .post(`${API}/agents`)
          .send({ ...body, logo })
          .expect(400);
        expect(res.body.message).toEqual(['logo: must be an http(s) URL']);
      }
      const agent = await createAgent(t, { logo: 'http://cdn.example/logo.png' });
      expect(agent.logo).toBe('http://cdn.example/logo.png');
      const patched = await t
        .api()
        .patch(`${API}/agents/${agent.id}`)
        .send({ logo: 'javascript:alert(document.cookie)' })
        .expect(400);
      expect(patched.body.message).toEqual(['logo: must be an http(s) URL']);
    });

    it("accepts another team's public workflow, and answers 404 for a private one", async () => {
      const publicOne = await createWorkflow(
        t,
        { name: 'Shared', visibility: 'public' },
        other.key,
      );
      const privateOne = await createWorkflow(t, { name: 'Secret' }, other.key);
      const agent = await createAgent(t, { workflow_id: publicOne.id });
      expect(agent.workflow.is_owner).toBe(false);
      const res = await t
        .api()
        .post(`${API}/agents`)
        .send({ workflow_id: privateOne.id, name: 'x', description: 'y' })
        .expect(404);
      expect(res.body.code).toBe('not_found');
      await t
        .api()
        .post(`${API}/agents`)
        .send({ workflow_id: 'nope', name: 'x', description: 'y' })
        .expect(404);
    });

    it('validates the body', async () => {
      const workflow = await createWorkflow(t);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: 'x', description: 'y' }, 'workflow_id: must not be empty'],
        [{ workflow_id: workflow.id, description: 'y' }, 'name: must not be empty'],
        [{ workflow_id: workflow.id, name: 'x' }, 'description: must not be empty'],
        [
          { workflow_id: workflow.id, name: 'x', description: 'y', persona: 'rude' },
          'persona: must be one of the following values: professional, friendly, concise',
        ],
        [
          { workflow_id: workflow.id, name: 'x', description: 'y', timezone: 'Mars/Olympus' },
          'timezone: must be an IANA time zone such as Africa/Lagos',
        ],
        [
          { workflow_id: workflow.id, name: 'x', description: 'y', business_email: 'nope' },
          'business_email: must be an email',
        ],
        [
          { workflow_id: workflow.id, name: 'x', description: 'y', status: 'live' },
          'status: is not allowed',
        ],
        [
          { workflow_id: workflow.id, name: 'x', description: 'y', test_channel_code: 'X' },
          'test_channel_code: is not allowed',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await t.api().post(`${API}/agents`).send(body).expect(400);
        expect(res.body.message).toContain(message);
      }
    });
  });

  describe('quota', () => {
    it('never goes over the quota, even with 20 creates at once', async () => {
      const small = await startTestApp({ AGENT_QUOTA: '5' });
      try {
        const workflow = await createWorkflow(small);
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            small
              .api()
              .post(`${API}/agents`)
              .send({ workflow_id: workflow.id, name: `A${i}`, description: 'd' }),
          ),
        );
        const statuses = responses.map((res) => res.status).sort();
        expect(statuses.filter((status) => status === 201)).toHaveLength(5);
        expect(statuses.filter((status) => status === 403)).toHaveLength(15);
        const refused = responses.find((res) => res.status === 403)!;
        expect(refused.body.code).toBe('agent_limit_reached');
        const list = await small.api().get(`${API}/agents?limit=100`).expect(200);
        expect(list.body.meta.total_count).toBe(5);
      } finally {
        await small.close();
      }
    });
  });

  describe('reading, listing, changing', () => {
    it('retrieves the detail with knowledge bases, integrations and channels', async () => {
      const agent = await createAgent(t);
      await createKnowledgeBase(t, agent.id, {
        type: 'text',
        name: 'FAQ',
        content: 'We open at 9.',
      });
      await configureIntegration(t, agent.id, 'bimpeai', {
        type: 'stripe',
        secret_key: 'sk_live_x',
      });
      const res = await t.api().get(`${API}/agents/${agent.id}`).expect(200);
      const { knowledge_bases, integrations, channels, ...rest } = res.body.data;
      const { workflow: _workflow, ...created } = agent;
      expect(rest).toEqual(created);
      expect(knowledge_bases).toEqual([
        { id: expect.any(String), type: 'text', name: 'FAQ', description: null },
      ]);
      expect(integrations).toEqual([
        {
          id: expect.any(String),
          type: 'stripe',
          name: 'Stripe',
          status: 'connected',
          is_connected: true,
        },
      ]);
      expect(channels.map((c: { type: string }) => c.type)).toEqual([
        'webchat',
        'whatsapp',
        'instagram',
        'messenger',
        'telephony',
      ]);
    });

    it('lists with search, status filter and sort', async () => {
      const solo = await startTestApp();
      try {
        for (const name of ['Zed', 'amy', 'Bob']) {
          await createAgent(solo, { name, business_name: name === 'Bob' ? 'Bobs Burgers' : null });
        }
        const list = async (query: string) =>
          (await solo.api().get(`${API}/agents?${query}`).expect(200)).body;
        expect((await list('')).data.map((a: { name: string }) => a.name)).toEqual([
          'Bob',
          'amy',
          'Zed',
        ]);
        expect((await list('sort=created_at')).data.map((a: { name: string }) => a.name)).toEqual([
          'Zed',
          'amy',
          'Bob',
        ]);
        expect((await list('search=BURGER')).data.map((a: { name: string }) => a.name)).toEqual([
          'Bob',
        ]);
        expect((await list('status=live')).meta.total_count).toBe(0);
        expect((await list('status=development')).meta.total_count).toBe(3);
        await solo.api().get(`${API}/agents?sort=test_channel_code`).expect(400);
        await solo.api().get(`${API}/agents?status=gone`).expect(400);
      } finally {
        await solo.close();
      }
    });

    it('updates any subset of fields, and checks a new workflow', async () => {
      const agent = await createAgent(t);
      const res = await t
        .api()
        .patch(`${API}/agents/${agent.id}`)
        .send({ name: 'Renamed', logo: null, persona: 'concise' })
        .expect(200);
      expect(res.body.data).toMatchObject({
        name: 'Renamed',
        logo: null,
        persona: 'concise',
        description: agent.description,
      });
      const foreign = await createWorkflow(t, { name: 'Theirs' }, other.key);
      await t
        .api()
        .patch(`${API}/agents/${agent.id}`)
        .send({ workflow_id: foreign.id })
        .expect(404);
      const mine = await createWorkflow(t, { name: 'Mine' });
      const moved = await t
        .api()
        .patch(`${API}/agents/${agent.id}`)
        .send({ workflow_id: mine.id })
        .expect(200);
      expect(moved.body.data.workflow_id).toBe(mine.id);
      const bad = await t.api().patch(`${API}/agents/${agent.id}`).send({ name: null }).expect(400);
      expect(bad.body.message).toContain('name: must be a string');
    });
  });

  describe('live status', () => {
    it('follows the state machine and stores the reason', async () => {
      const agent = await createAgent(t);
      const move = (status: string, status_reason?: string) =>
        t.api().patch(`${API}/agents/${agent.id}/live-status`).send({ status, status_reason });
      const illegal = await move('paused').expect(409);
      expect(illegal.body.code).toBe('conflict');
      expect((await move('live', 'Launch').expect(200)).body.data).toEqual({
        status: 'live',
        status_reason: 'Launch',
      });
      expect((await move('live').expect(200)).body.data).toEqual({
        status: 'live',
        status_reason: 'Launch',
      });
      expect((await move('paused', 'Holiday').expect(200)).body.data).toEqual({
        status: 'paused',
        status_reason: 'Holiday',
      });
      expect((await move('live').expect(200)).body.data).toEqual({
        status: 'live',
        status_reason: null,
      });
      expect((await move('development').expect(200)).body.data.status).toBe('development');
      await move('paused').expect(409);
      await move('archived').expect(400);
      const read = await t.api().get(`${API}/agents/${agent.id}`).expect(200);
      expect(read.body.data.status).toBe('development');
    });
  });

  describe('test code, channels, flows', () => {
    it('builds the deployment object from the code and the configured test endpoints', async () => {
      const agent = await createAgent(t);
      const res = await t
        .api()
        .get(`${API}/agents/${agent.id}/deployment/agent-test-code`)
        .expect(200);
      const start = `TEST-${agent.test_channel_code}`;
      expect(res.body.data).toEqual({
        code: agent.test_channel_code,
        channels: {
          whatsapp: {
            is_enabled: true,
            start_message: start,
            phone_number: '+2348000000000',
            url: `https://wa.me/2348000000000?text=${encodeURIComponent(start)}`,
          },
          instagram: { is_enabled: false, start_message: start, username: null, url: null },
          messenger: {
            is_enabled: true,
            start_message: start,
            page: 'console.test',
            url: `https://m.me/console.test?ref=${encodeURIComponent(start)}`,
          },
          telephony: { is_enabled: false },
        },
      });
    });

    it('gives every agent a different test code', async () => {
      const codes = new Set<string>();
      for (let i = 0; i < 5; i++) {
        codes.add((await createAgent(t)).test_channel_code);
      }
      expect(codes.size).toBe(5);
    });

    it('lists one channel per type, each inactive until connected, saying why', async () => {
      const agent = await createAgent(t);
      const res = await t.api().get(`${API}/agents/${agent.id}/channels`).expect(200);
      expect(res.body.meta).toBeUndefined();
      const channel = (type: string, name: string, reason = 'Not connected') => ({
        id: expect.any(String),
        type,
        name,
        status: 'inactive',
        status_reason: reason,
        is_connected: false,
        config: {},
        connected_at: null,
      });
      expect(res.body.data).toEqual([
        channel('webchat', 'Web chat'),
        channel('whatsapp', 'WhatsApp'),
        channel('instagram', 'Instagram'),
        channel('messenger', 'Messenger'),
        channel(
          'telephony',
          'Telephony',
          'Calls are not available: phone numbers can be requested, calls are not answered yet',
        ),
      ]);
    });

    it("returns the workflow's flows", async () => {
      const workflow = await createWorkflow(t, FULL_WORKFLOW);
      const agent = await createAgent(t, { workflow_id: workflow.id });
      const res = await t.api().get(`${API}/agents/${agent.id}/flows`).expect(200);
      expect(res.body.data).toEqual(workflow.flows);
    });
  });

  describe('deleting', () => {
    it('removes the agent with everything under it', async () => {
      const agent = await createAgent(t);
      await createKnowledgeBase(t, agent.id, { type: 'text', name: 'FAQ', content: 'Text.' });
      await configureIntegration(t, agent.id, 'bimpeai', { type: 'stripe', secret_key: 'sk' });
      const api = await configureIntegration(t, agent.id, 'custom_api', {
        name: 'Orders',
        base_url: 'https://api.example.com',
      });
      await createTool(t, agent.id, api.id, {
        name: 'Get order',
        http_method: 'GET',
        url_template: '/orders/{id}',
      });
      const res = await t.api().delete(`${API}/agents/${agent.id}`).expect(200);
      expect(res.body).toEqual({ message: 'Agent deleted successfully', data: null });
      await t.api().get(`${API}/agents/${agent.id}`).expect(404);
      for (const table of [
        'agent_channels',
        'knowledge_bases',
        'knowledge_passages',
        'integrations',
        'actions',
      ]) {
        const rows = await t
          .dataSource()
          .createQueryBuilder()
          .select('COUNT(*)', 'n')
          .from(table, 'x')
          .where('x.agent_id = :id', { id: agent.id })
          .getRawOne();
        expect({ table, n: Number(rows.n) }).toEqual({ table, n: 0 });
      }
    });

    it('refuses to delete a workflow while agents use it (409), and allows it afterwards', async () => {
      const workflow = await createWorkflow(t);
      const agent = await createAgent(t, { workflow_id: workflow.id });
      const res = await t.api().delete(`${API}/workflows/${workflow.id}`).expect(409);
      expect(res.body.code).toBe('conflict');
      await t.api().delete(`${API}/agents/${agent.id}`).expect(200);
      await t.api().delete(`${API}/workflows/${workflow.id}`).expect(200);
    });
  });
});

describe('ids in bodies', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const post = (path: string, body: object) => t.api().post(`${API}${path}`).send(body);

  it('reads workflow_id, source_workflow_id, conversation_id and action_ids whatever their case, as paths do', async () => {
    const workflow = await createWorkflow(t, { name: 'W' });
    const WORKFLOW_ID = workflow.id.toUpperCase();
    await t.api().get(`${API}/workflows/${WORKFLOW_ID}`).expect(200);

    const agent = (
      await post('/agents', { workflow_id: WORKFLOW_ID, name: 'A', description: 'd' }).expect(201)
    ).body.data;
    expect(agent.workflow_id).toBe(workflow.id);
    const other = await createWorkflow(t, { name: 'Other' });
    const patched = await t
      .api()
      .patch(`${API}/agents/${agent.id}`)
      .send({ workflow_id: other.id.toUpperCase() })
      .expect(200);
    expect(patched.body.data.workflow_id).toBe(other.id);

    await post('/workflows/clone', { source_workflow_id: WORKFLOW_ID }).expect(201);

    const first = (
      await post(`/agents/${agent.id}/conversations/messages`, {
        message: 'hi',
        role: 'assistant',
        channel_type: 'webchat',
        channel_user_id: 'u',
      }).expect(201)
    ).body.data;
    const second = (
      await post(`/agents/${agent.id}/conversations/messages`, {
        message: 'again',
        role: 'assistant',
        conversation_id: first.conversation_id.toUpperCase(),
      }).expect(201)
    ).body.data;
    expect(second.conversation_id).toBe(first.conversation_id);

    await post(`/agents/${agent.id}/integrations/bimpeai/configure`, {
      type: 'google_sheets',
    }).expect(201);
    const actions = (await t.api().get(`${API}/agents/${agent.id}/actions`)).body.data;
    const disabled = await post(`/agents/${agent.id}/actions/disable`, {
      action_ids: [actions[0].id.toUpperCase()],
    }).expect(200);
    expect(disabled.body.data).toEqual({ updated_count: 1 });
  });
});
