import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createWorkflow, FULL_WORKFLOW } from '../factories/workflows';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WORKFLOW_FIELDS = [
  'id',
  'name',
  'description',
  'category',
  'visibility',
  'is_owner',
  'system_prompt',
  'rules',
  'flows',
  'tags',
  'integrations',
  'channels',
  'actions',
  'guide',
  'faq',
  'setup_steps',
  'setup_time',
  'video_url',
  'prompt_config',
  'created_at',
  'updated_at',
].sort();

describe('workflows', () => {
  let t: TestApp;
  let other: TeamKey;

  beforeAll(async () => {
    t = await startTestApp();
    other = await t.createKey('other-team', ['workflows:read', 'workflows:write']);
  });
  afterAll(() => t.close());

  describe('POST /workflows', () => {
    it('creates a workflow with every field stored and returned', async () => {
      const res = await t.api().post(`${API}/workflows`).send(FULL_WORKFLOW).expect(201);
      expect(res.body.message).toBe('Workflow created successfully');
      const data = res.body.data;
      expect(Object.keys(data).sort()).toEqual(WORKFLOW_FIELDS);
      expect(data).toMatchObject({
        name: 'Support desk',
        description: 'Answers support questions',
        category: 'support',
        visibility: 'private',
        is_owner: true,
        system_prompt: FULL_WORKFLOW.system_prompt,
        tags: ['support', 'faq'],
        integrations: ['stripe'],
        channels: ['webchat', { type: 'whatsapp' }],
        actions: [{ name: 'create_payment_link' }],
        guide: { youtubeUrl: 'https://youtube.com/watch?v=1', steps: ['Create', 'Test'] },
        faq: [{ question: 'Hours?', answer: '9 to 5' }],
        setup_steps: ['Connect Stripe'],
        setup_time: 10,
        video_url: 'https://example.com/video',
        prompt_config: { temperature: 0.2, nested: { list: [1, 2] } },
      });
      expect(data.id).toEqual(expect.any(String));
      expect(data.created_at).toMatch(ISO_MS);
      expect(data.updated_at).toBe(data.created_at);
      expect(data.rules).toEqual([
        {
          id: expect.any(String),
          name: 'Greeting',
          trigger: 'hello, hi',
          condition: 'always',
          response: 'Hello from {{agent.name}}!',
          action: 'reply',
          enabled: true,
        },
        {
          id: 'rule-fixed',
          name: 'Escalate',
          trigger: 'human',
          condition: null,
          response: 'Connecting you',
          action: 'escalate',
          enabled: false,
        },
      ]);
      expect(data.flows).toEqual([
        {
          name: 'Refunds',
          description: 'Refund questions',
          category: 'billing',
          priority: 2,
          is_active: true,
          trigger_keywords: [{ keyword: 'refund', weight: 'high' }, { keyword: 'money back' }],
          conversation_steps: [
            { type: 'message', content: 'Sorry to hear that. What is your order number?' },
            {
              type: 'message',
              content: 'Thanks, a refund is on its way.',
              action: 'refund',
              followup: 'Anything else?',
            },
          ],
        },
      ]);
      const read = await t.api().get(`${API}/workflows/${data.id}`).expect(200);
      expect(read.body).toEqual({ message: 'Workflow retrieved successfully', data });
    });

    it('fills every unset field with null or []', async () => {
      const data = await createWorkflow(t, { name: 'Minimal' });
      expect(data).toEqual({
        id: expect.any(String),
        name: 'Minimal',
        description: null,
        category: null,
        visibility: 'private',
        is_owner: true,
        system_prompt: null,
        rules: [],
        flows: [],
        tags: [],
        integrations: [],
        channels: [],
        actions: [],
        guide: null,
        faq: [],
        setup_steps: [],
        setup_time: null,
        video_url: null,
        prompt_config: null,
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
      });
    });

    it('echoes the nested objects as sent, without inventing null for what was left out', async () => {
      const flows = [
        {
          name: 'Bare',
          trigger_keywords: [{ keyword: 'hi' }],
          conversation_steps: [{ type: 'message' }, { type: 'message', content: 'Hello' }],
        },
        { name: 'Cleared', description: null, priority: null, trigger_keywords: [] },
      ];
      const data = await createWorkflow(t, {
        name: 'Echo',
        flows,
        guide: { steps: ['One'] },
      });
      expect(data.flows).toEqual([{ ...flows[0] }, { ...flows[1], conversation_steps: [] }]);
      expect(data.guide).toEqual({ steps: ['One'] });
      const read = await t.api().get(`${API}/workflows/${data.id}`).expect(200);
      expect(read.body.data.flows).toEqual(data.flows);
      expect(read.body.data.guide).toEqual(data.guide);
    });

    it('takes setup_time as a whole number of minutes, or null', async () => {
      const data = await createWorkflow(t, { name: 'Timed', setup_time: 15 });
      expect(data.setup_time).toBe(15);
      const cleared = await t
        .api()
        .patch(`${API}/workflows/${data.id}`)
        .send({ setup_time: null })
        .expect(200);
      expect(cleared.body.data.setup_time).toBeNull();
      expect((await createWorkflow(t, { name: 'Instant', setup_time: 0 })).setup_time).toBe(0);
      const unset = await createWorkflow(t, { name: 'Untimed', setup_time: null });
      expect(unset.setup_time).toBeNull();
      expect(
        (await t.api().get(`${API}/workflows/${unset.id}`).expect(200)).body.data.setup_time,
      ).toBeNull();
      const cases: Array<[unknown, string]> = [
        ['15 minutes', 'setup_time: must be an integer number'],
        [1.5, 'setup_time: must be an integer number'],
        [-1, 'setup_time: must not be less than 0'],
        [2 ** 40, 'setup_time: must not be greater than 525600'],
      ];
      for (const [setup_time, message] of cases) {
        const res = await t
          .api()
          .post(`${API}/workflows`)
          .send({ name: 'n', setup_time })
          .expect(400);
        expect(res.body.message).toContain(message);
      }
    });

    it('accepts only http(s) URLs in video_url and guide.youtubeUrl', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ video_url: 'javascript:alert(1)' }, 'video_url: must be an http(s) URL'],
        [{ video_url: 'data:text/html,<b>x</b>' }, 'video_url: must be an http(s) URL'],
        [
          { guide: { youtubeUrl: 'javascript:alert(1)', steps: [] } },
          'guide.youtubeUrl: must be an http(s) URL',
        ],
        [
          { guide: { youtubeUrl: 'ftp://videos.example/1', steps: [] } },
          'guide.youtubeUrl: must be an http(s) URL',
        ],
      ];
      for (const [fields, message] of cases) {
        const res = await t
          .api()
          .post(`${API}/workflows`)
          .send({ name: 'n', ...fields })
          .expect(400);
        expect(res.body.message).toEqual([message]);
      }
      const { id } = await createWorkflow(t, { name: 'Linked' });
      const patched = await t
        .api()
        .patch(`${API}/workflows/${id}`)
        .send({ video_url: 'JavaScript:alert(document.cookie)' })
        .expect(400);
      expect(patched.body.message).toEqual(['video_url: must be an http(s) URL']);
    });

    it('requires a name and enforces the input limits', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'name: must not be empty'],
        [{ name: null }, 'name: must be a string'],
        [{ name: 'x'.repeat(256) }, 'name: must be shorter than or equal to 255 characters'],
        [
          { name: 'n', description: 'x'.repeat(2001) },
          'description: must be shorter than or equal to 2000 characters',
        ],
        [
          { name: 'n', system_prompt: 'x'.repeat(50_001) },
          'system_prompt: must be shorter than or equal to 50000 characters',
        ],
        [
          { name: 'n', tags: Array.from({ length: 501 }, (_, i) => `t${i}`) },
          'tags: must contain no more than 500 elements',
        ],
        [
          { name: 'n', visibility: 'secret' },
          'visibility: must be one of the following values: private, public',
        ],
        [{ name: 'n', rules: 'none' }, 'rules: must be an array'],
        [{ name: 'n', rules: null }, 'rules: must be an array'],
        [{ name: 'n', flows: [{}] }, 'flows.0.name: must not be empty'],
        [
          { name: 'n', flows: [{ name: 'f', priority: 2 ** 60 }] },
          'flows.0.priority: must not be greater than 1000000',
        ],
        [{ name: 'n', guide: { steps: 'x' } }, 'guide.steps: must be an array'],
        [{ name: 'n', prompt_config: [1] }, 'prompt_config: must be a JSON object'],
        [
          { name: 'n', channels: [1] },
          'channels: each value must be a string of at most 2000 characters or an object',
        ],
        [{ name: 'n', faq: [{ question: 'q' }] }, 'faq.0.answer: must be a string'],
      ];
      for (const [body, message] of cases) {
        const res = await t.api().post(`${API}/workflows`).send(body).expect(400);
        expect(res.body.code).toBe('validation_error');
        expect(res.body.message).toContain(message);
      }
    });
  });

  describe('trigger limits', () => {
    /** A rule trigger of 1,000 one-letter phrases, within the 2,000 characters of a trigger. */
    const thousandPhrases = (name: string) => ({ name, trigger: 'x,'.repeat(999) + 'x' });
    const flowWithKeywords = (name: string, count: number) => ({
      name,
      trigger_keywords: Array.from({ length: count }, (_, i) => ({ keyword: `k${i}` })),
    });
    const overTheLimits: Array<[Record<string, unknown>, string]> = [
      [
        { rules: ['a', 'b', 'c'].map(thousandPhrases) },
        'rules: must hold at most 2000 trigger phrases in all, not 3000',
      ],
      [
        { flows: ['a', 'b', 'c', 'd', 'e'].map((name) => flowWithKeywords(name, 401)) },
        'flows: must hold at most 2000 trigger keywords in all, not 2005',
      ],
      [
        {
          rules: Array.from({ length: 30 }, (_, i) => ({
            name: `Long ${i}`,
            trigger: Array.from({ length: 7 }, () => 'y'.repeat(255)).join(','),
          })),
        },
        'rules: must hold at most 50000 characters of trigger phrases in all, not 53550',
      ],
      [
        {
          flows: [
            {
              name: 'Long',
              trigger_keywords: Array.from({ length: 200 }, () => ({ keyword: 'z'.repeat(255) })),
            },
          ],
        },
        'flows: must hold at most 50000 characters of trigger keywords in all, not 51000',
      ],
      [
        { rules: [{ name: 'Long', trigger: `refund, ${'x'.repeat(256)}` }] },
        'rules.0.trigger: each phrase must be shorter than or equal to 255 characters',
      ],
    ];

    it('refuses a workflow over 2,000 trigger phrases or keywords, 50,000 characters of them, or a phrase over 255 characters, on create', async () => {
      for (const [fields, message] of overTheLimits) {
        const res = await t
          .api()
          .post(`${API}/workflows`)
          .send({ name: 'Too many', ...fields })
          .expect(400);
        expect(res.body).toMatchObject({ code: 'validation_error', statusCode: 400 });
        expect(res.body.message).toEqual([message]);
      }
      await createWorkflow(t, {
        name: 'At the limits',
        rules: [
          thousandPhrases('a'),
          { name: 'b', trigger: 'x,'.repeat(998) + 'x' },
          { name: 'Long', trigger: 'x'.repeat(255) },
        ],
        flows: ['a', 'b', 'c', 'd'].map((name) => flowWithKeywords(name, 500)),
      });
    });

    it('refuses the same on PATCH and keeps the workflow as it was', async () => {
      const created = await createWorkflow(t, FULL_WORKFLOW);
      for (const [fields, message] of overTheLimits) {
        const res = await t.api().patch(`${API}/workflows/${created.id}`).send(fields).expect(400);
        expect(res.body).toMatchObject({ code: 'validation_error', statusCode: 400 });
        expect(res.body.message).toEqual([message]);
      }
      const stored = await t.api().get(`${API}/workflows/${created.id}`).expect(200);
      expect(stored.body.data).toMatchObject({
        rules: created.rules,
        flows: created.flows,
        updated_at: created.updated_at,
      });
    });
  });

  describe('visibility, ownership and tenant isolation', () => {
    let privateOne: Record<string, any>;
    let publicOne: Record<string, any>;

    beforeAll(async () => {
      privateOne = await createWorkflow(t, { name: 'Team A private' });
      publicOne = await createWorkflow(t, { name: 'Team A public', visibility: 'public' });
    });

    it("hides another team's private workflow everywhere (404, never 403)", async () => {
      const otherTeam = t.api(other.key);
      await otherTeam.get(`${API}/workflows/${privateOne.id}`).expect(404);
      await otherTeam.patch(`${API}/workflows/${privateOne.id}`).send({ name: 'x' }).expect(404);
      await otherTeam.delete(`${API}/workflows/${privateOne.id}`).expect(404);
      await otherTeam
        .post(`${API}/workflows/clone`)
        .send({ source_workflow_id: privateOne.id })
        .expect(404);
      const list = await otherTeam.get(`${API}/workflows?limit=100`).expect(200);
      expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(privateOne.id);
    });

    it('lets another team read a public workflow but not change it', async () => {
      const otherTeam = t.api(other.key);
      const read = await otherTeam.get(`${API}/workflows/${publicOne.id}`).expect(200);
      expect(read.body.data.is_owner).toBe(false);
      const patch = await otherTeam
        .patch(`${API}/workflows/${publicOne.id}`)
        .send({ name: 'taken' })
        .expect(403);
      expect(patch.body.code).toBe('forbidden');
      const del = await otherTeam.delete(`${API}/workflows/${publicOne.id}`).expect(403);
      expect(del.body.code).toBe('forbidden');
      const still = await t.api().get(`${API}/workflows/${publicOne.id}`).expect(200);
      expect(still.body.data.name).toBe('Team A public');
    });

    it('lists by scope: owned, public and accessible', async () => {
      const theirs = await createWorkflow(t, { name: 'Team B own' }, other.key);
      const ids = async (scope?: string) => {
        const query = scope ? `?scope=${scope}&limit=100` : '?limit=100';
        const res = await t.api(other.key).get(`${API}/workflows${query}`).expect(200);
        return res.body.data.map((w: { id: string }) => w.id) as string[];
      };
      expect(await ids('owned')).toEqual([theirs.id]);
      const publicIds = await ids('public');
      expect(publicIds).toContain(publicOne.id);
      expect(publicIds).not.toContain(theirs.id);
      const accessible = await ids();
      expect(accessible).toEqual(expect.arrayContaining([theirs.id, publicOne.id]));
      expect(accessible).not.toContain(privateOne.id);
      expect(await ids('accessible')).toEqual(accessible);
      await t.api(other.key).get(`${API}/workflows?scope=everything`).expect(400);
    });

    it('answers 404 for a malformed or unknown id', async () => {
      for (const id of ['not-an-id', '00000000-0000-7000-8000-000000000000', "1' OR '1'='1"]) {
        const res = await t
          .api()
          .get(`${API}/workflows/${encodeURIComponent(id)}`)
          .expect(404);
        expect(res.body.code).toBe('not_found');
      }
    });
  });

  describe('PATCH /workflows/{id}', () => {
    it('changes only the fields sent, clears nullable ones with null, and moves updated_at', async () => {
      const created = await createWorkflow(t, FULL_WORKFLOW);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await t
        .api()
        .patch(`${API}/workflows/${created.id}`)
        .send({
          name: 'Renamed',
          description: null,
          visibility: 'public',
          rules: [{ name: 'Only', trigger: 'bye' }],
        })
        .expect(200);
      expect(res.body.message).toBe('Workflow updated successfully');
      const data = res.body.data;
      expect(data).toMatchObject({
        name: 'Renamed',
        description: null,
        visibility: 'public',
        category: 'support',
      });
      expect(data.rules).toEqual([
        {
          id: expect.any(String),
          name: 'Only',
          trigger: 'bye',
          condition: null,
          response: null,
          action: null,
          enabled: true,
        },
      ]);
      expect(data.flows).toEqual(created.flows);
      expect(data.created_at).toBe(created.created_at);
      expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    });

    it('refuses null for a required field and unknown fields', async () => {
      const created = await createWorkflow(t);
      const res = await t
        .api()
        .patch(`${API}/workflows/${created.id}`)
        .send({ name: null, id: 'x' })
        .expect(400);
      expect(res.body.message).toEqual(
        expect.arrayContaining(['name: must be a string', 'id: is not allowed']),
      );
    });

    it('keeps one of two concurrent full updates, never a mix', async () => {
      const created = await createWorkflow(t);
      const bodies = [
        { name: 'A', description: 'from A', category: 'a' },
        { name: 'B', description: 'from B', category: 'b' },
      ];
      await Promise.all(
        bodies.map((body) =>
          t.api().patch(`${API}/workflows/${created.id}`).send(body).expect(200),
        ),
      );
      const final = (await t.api().get(`${API}/workflows/${created.id}`)).body.data;
      expect(bodies).toContainEqual({
        name: final.name,
        description: final.description,
        category: final.category,
      });
    });
  });

  describe('POST /workflows/clone', () => {
    it("copies an own or public workflow into a private one of the caller's team", async () => {
      const source = await createWorkflow(t, { ...FULL_WORKFLOW, visibility: 'public' });
      const res = await t
        .api(other.key)
        .post(`${API}/workflows/clone`)
        .send({ source_workflow_id: source.id })
        .expect(201);
      const copy = res.body.data;
      expect(res.body.message).toBe('Workflow cloned successfully');
      expect(copy.id).not.toBe(source.id);
      expect(copy).toMatchObject({
        name: 'Support desk (copy)',
        visibility: 'private',
        is_owner: true,
      });
      const {
        id: _a,
        name: _b,
        visibility: _c,
        is_owner: _d,
        created_at: _e,
        updated_at: _f,
        ...rest
      } = copy;
      const {
        id: _g,
        name: _h,
        visibility: _i,
        is_owner: _j,
        created_at: _k,
        updated_at: _l,
        ...sourceRest
      } = source;
      expect(rest).toEqual(sourceRest);
      await t
        .api(other.key)
        .patch(`${API}/workflows/${copy.id}`)
        .send({ name: 'Mine' })
        .expect(200);
    });

    it('keeps a long name within 255 characters', async () => {
      const source = await createWorkflow(t, { name: 'n'.repeat(255) });
      const res = await t
        .api()
        .post(`${API}/workflows/clone`)
        .send({ source_workflow_id: source.id })
        .expect(201);
      expect(res.body.data.name).toHaveLength(255);
      expect(res.body.data.name.endsWith(' (copy)')).toBe(true);
    });

    it('validates the body and answers 404 for an unknown source', async () => {
      await t.api().post(`${API}/workflows/clone`).send({}).expect(400);
      await t
        .api()
        .post(`${API}/workflows/clone`)
        .send({ source_workflow_id: '00000000-0000-7000-8000-000000000000' })
        .expect(404);
    });
  });

  describe('DELETE /workflows/{id}', () => {
    it('answers 200 with data null, then the workflow is gone', async () => {
      const created = await createWorkflow(t);
      const res = await t.api().delete(`${API}/workflows/${created.id}`).expect(200);
      expect(res.body).toEqual({ message: 'Workflow deleted successfully', data: null });
      await t.api().get(`${API}/workflows/${created.id}`).expect(404);
      await t.api().delete(`${API}/workflows/${created.id}`).expect(404);
    });
  });
});

describe('workflow lists', () => {
  let t: TestApp;
  const names = ['Alpha', 'bravo', 'Charlie', 'delta', 'Echo', 'foxtrot', 'Golf'];

  beforeAll(async () => {
    t = await startTestApp();
    for (const [index, name] of names.entries()) {
      await createWorkflow(t, {
        name,
        category: index % 2 === 0 ? 'even' : 'odd',
        description: index === 3 ? 'Contains 100% MATCH_me' : null,
        tags: index === 5 ? ['Special-Tag'] : [],
      });
    }
  });
  afterAll(() => t.close());

  const list = async (query: string) =>
    (await t.api().get(`${API}/workflows?${query}`).expect(200)).body;

  it('pages with exact meta, newest first by default', async () => {
    const first = await list('limit=3');
    expect(first.data.map((w: { name: string }) => w.name)).toEqual(['Golf', 'foxtrot', 'Echo']);
    expect(first.meta).toEqual({
      total_count: 7,
      page_count: 3,
      current_page: 1,
      limit: 3,
      has_next_page: true,
      has_previous_page: false,
    });
    const last = await list('limit=3&page=3');
    expect(last.data.map((w: { name: string }) => w.name)).toEqual(['Alpha']);
    expect(last.meta).toMatchObject({
      current_page: 3,
      has_next_page: false,
      has_previous_page: true,
    });
  });

  it('returns an empty page past the end with correct meta', async () => {
    const past = await list('limit=5&page=9');
    expect(past.data).toEqual([]);
    expect(past.meta).toEqual({
      total_count: 7,
      page_count: 2,
      current_page: 9,
      limit: 5,
      has_next_page: false,
      has_previous_page: true,
    });
  });

  it('sorts by a whitelisted field in either direction', async () => {
    const byCreated = await list('sort=created_at');
    expect(byCreated.data.map((w: { name: string }) => w.name)).toEqual(names);
    const byCategory = await list('sort=-category&limit=100');
    expect(
      byCategory.data.slice(0, 3).every((w: { category: string }) => w.category === 'odd'),
    ).toBe(true);
  });

  it('searches name, description, category and tags case-insensitively, with wildcards taken literally', async () => {
    expect((await list('search=ALPHA')).data.map((w: { name: string }) => w.name)).toEqual([
      'Alpha',
    ]);
    expect((await list('search=match_ME')).data.map((w: { name: string }) => w.name)).toEqual([
      'delta',
    ]);
    expect((await list('search=100%25')).data.map((w: { name: string }) => w.name)).toEqual([
      'delta',
    ]);
    expect((await list('search=special-tag')).data.map((w: { name: string }) => w.name)).toEqual([
      'foxtrot',
    ]);
    expect((await list('search=%25')).meta.total_count).toBe(1);
    expect((await list('search=_')).meta.total_count).toBe(1);
    expect((await list('search=ODD')).meta.total_count).toBe(3);
    const empty = await list('search=nothing-like-this');
    expect(empty).toMatchObject({
      data: [],
      meta: { total_count: 0, page_count: 0, has_next_page: false },
    });
  });
});

describe('workflow search beyond ASCII and JSON', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await createWorkflow(t, { name: 'Éclair', tags: ['pastry', 'sweet'] });
    await createWorkflow(t, { name: 'Market', tags: ['Ürün', 'stock'] });
    await createWorkflow(t, { name: 'Birds', description: 'The Ñandú runs', tags: [] });
    await createWorkflow(t, { name: 'Quoted "name", [brackets]', tags: ['a'] });
    await createWorkflow(t, { name: 'Rates 100% off_peak', tags: [] });
  });
  afterAll(() => t.close());

  const found = async (search: string) =>
    (
      await t.api().get(`${API}/workflows`).query({ search, sort: 'name' }).expect(200)
    ).body.data.map((w: { name: string }) => w.name);

  it('matches letters beyond ASCII in any case', async () => {
    expect(await found('éclair')).toEqual(['Éclair']);
    expect(await found('ÉCLAIR')).toEqual(['Éclair']);
    expect(await found('ÜRÜN')).toEqual(['Market']);
    expect(await found('ñANDÚ')).toEqual(['Birds']);
  });

  it('searches each tag, never the syntax tags are stored in', async () => {
    expect(await found('"')).toEqual(['Quoted "name", [brackets]']);
    expect(await found('[')).toEqual(['Quoted "name", [brackets]']);
    expect(await found(',')).toEqual(['Quoted "name", [brackets]']);
    expect(await found('"pastry"')).toEqual([]);
    expect(await found('pastry","sweet')).toEqual([]);
    expect(await found('sweet')).toEqual(['Éclair']);
  });

  it('takes % and _ literally', async () => {
    expect(await found('%')).toEqual(['Rates 100% off_peak']);
    expect(await found('_')).toEqual(['Rates 100% off_peak']);
    expect(await found('0%')).toEqual(['Rates 100% off_peak']);
  });
});
