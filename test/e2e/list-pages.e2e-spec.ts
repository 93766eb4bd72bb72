import { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { expectedPage, ListModel } from '../support/list-model';

/**
 * Lists read a page and its total in one statement of our own (database/sql/list-pages.ts).
 * Their pages must be the ones a plain model of the contract computes from every row (filter,
 * case-insensitive substring search, sort with ties broken by id in the same direction, page
 * bounds): same rows in the same order and the same meta, on the engine the suite runs on.
 */
describe('list pages read with their totals', () => {
  let t: TestApp;
  let mine: TeamKey;
  let theirs: TeamKey;
  /** Our workflows and agents, and the other team's public workflow, by name. */
  const ids = new Map<string, string>();

  const WORKFLOWS: Array<Record<string, unknown>> = [
    { name: 'Beta', category: 'billing', tags: ['Refunds'] },
    { name: 'Beta', category: null, description: 'Handles 100% of REFUNDS' },
    { name: 'Alpha', category: 'billing', visibility: 'public' },
    { name: 'Beta', category: 'sales' },
    { name: 'Alpha', category: null, tags: ['under_score'] },
    { name: 'Gamma', category: 'sales', description: 'Plain' },
    { name: 'Delta', category: 'billing' },
  ];
  const THEIR_WORKFLOWS: Array<Record<string, unknown>> = [
    { name: 'Beta', category: 'billing', description: 'refunds of theirs', visibility: 'public' },
    { name: 'Secret refunds', category: 'billing', tags: ['Refunds'] },
    { name: 'Alpha', category: null },
  ];

  beforeAll(async () => {
    t = await startTestApp();
    mine = await t.createKey('lists-mine', ['*']);
    theirs = await t.createKey('lists-theirs', ['*']);
    for (const body of WORKFLOWS) {
      const workflow = await createWorkflow(t, body, mine.key);
      ids.set(`mine:${workflow.name}:${ids.size}`, workflow.id);
    }
    for (const body of THEIR_WORKFLOWS) {
      await createWorkflow(t, body, theirs.key);
    }
    // Rows created within one millisecond tie on their dates: some are made to.
    const tied = new Date('2026-11-01T08:00:00.000Z');
    await t
      .dataSource()
      .createQueryBuilder()
      .update(WorkflowEntity)
      .set({ createdAt: tied, updatedAt: tied })
      .where('name IN (:...names)', { names: ['Beta', 'Alpha'] })
      .execute();
  });
  afterAll(() => t.close());

  const get = async (key: string, path: string) =>
    (await t.api(key).get(`${API}${path}`).expect(200)).body;

  const engine = () => (t.dataSource().options.type === 'postgres' ? 'postgres' : 'sqlite');

  const WORKFLOW_MODEL: ListModel<WorkflowEntity> = {
    search: ['name', 'description', 'category'],
    searchArrays: ['tags'],
    sort: { name: 'name', category: 'category', created_at: 'createdAt', updated_at: 'updatedAt' },
    defaultSort: '-created_at',
  };

  /** The page the model computes for `scope` and `query` from every workflow. */
  async function modelWorkflows(
    teamId: string,
    scope: string,
    query: Record<string, string | number>,
  ) {
    const every = await t.dataSource().manager.find(WorkflowEntity);
    const rows = every.filter((workflow) =>
      scope === 'owned'
        ? workflow.teamId === teamId
        : scope === 'public'
          ? workflow.visibility === 'public'
          : workflow.teamId === teamId || workflow.visibility === 'public',
    );
    return expectedPage(rows, query, WORKFLOW_MODEL, engine());
  }

  const queryString = (query: Record<string, string | number>) =>
    new URLSearchParams(
      Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString();

  async function expectWorkflowsAsModel(scope: string, query: Record<string, string | number>) {
    const body = await get(mine.key, `/workflows?${queryString({ scope, ...query })}`);
    const expected = await modelWorkflows(mine.teamId, scope, { page: 1, limit: 20, ...query });
    expect({ ids: body.data.map((w: { id: string }) => w.id), meta: body.meta }).toEqual(expected);
    return body;
  }

  it('pages through every row once, with the total on each page', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = await expectWorkflowsAsModel('owned', { limit: 3, page });
      expect(body.meta).toEqual({
        total_count: 7,
        page_count: 3,
        current_page: page,
        limit: 3,
        has_next_page: page < 3,
        has_previous_page: page > 1,
      });
      seen.push(...body.data.map((w: { id: string }) => w.id));
    }
    expect(new Set(seen)).toEqual(new Set(ids.values()));
    expect(seen).toHaveLength(7);
  });

  it('answers a page past the end with no rows and the true total', async () => {
    const body = await expectWorkflowsAsModel('owned', { limit: 5, page: 4 });
    expect(body).toMatchObject({
      data: [],
      meta: { total_count: 7, page_count: 2, current_page: 4, has_next_page: false },
    });
    const searched = await expectWorkflowsAsModel('accessible', { search: 'refunds', page: 2 });
    expect(searched).toMatchObject({ data: [], meta: { total_count: 3, page_count: 1 } });
    const nothing = await expectWorkflowsAsModel('owned', { search: 'no such words' });
    expect(nothing).toMatchObject({ data: [], meta: { total_count: 0, page_count: 0 } });
  });

  it.each(['name', 'category', 'created_at', 'updated_at'])(
    'sorts by %s either way, ties broken by id in the same direction',
    async (field) => {
      for (const sort of [field, `-${field}`]) {
        for (const scope of ['owned', 'accessible', 'public']) {
          await expectWorkflowsAsModel(scope, { sort, limit: 100 });
          await expectWorkflowsAsModel(scope, { sort, limit: 2, page: 2 });
        }
      }
      const byName = await get(mine.key, '/workflows?scope=owned&sort=-name&limit=100');
      const betas = byName.data
        .filter((w: { name: string }) => w.name === 'Beta')
        .map((w: { id: string }) => w.id);
      expect(betas).toEqual([...betas].sort().reverse());
    },
  );

  it('searches names, descriptions, categories and tag elements, wildcards taken literally', async () => {
    const refunds = await expectWorkflowsAsModel('owned', { search: 'REFUNDS' });
    expect(refunds.data.map((w: { name: string }) => w.name)).toEqual(['Beta', 'Beta']);
    expect((await expectWorkflowsAsModel('owned', { search: '100%' })).meta.total_count).toBe(1);
    expect((await expectWorkflowsAsModel('owned', { search: '_' })).meta.total_count).toBe(1);
    expect((await expectWorkflowsAsModel('owned', { search: 'SALES' })).meta.total_count).toBe(2);
    await expectWorkflowsAsModel('accessible', { search: 'alpha', sort: 'name', limit: 1 });
  });

  it("never shows or counts another team's private rows, and shows its public ones only where asked", async () => {
    const owned = await expectWorkflowsAsModel('owned', { limit: 100 });
    expect(owned.data.every((w: { is_owner: boolean }) => w.is_owner)).toBe(true);
    const accessible = await expectWorkflowsAsModel('accessible', { limit: 100 });
    expect(accessible.meta.total_count).toBe(8);
    expect(accessible.data.filter((w: { is_owner: boolean }) => !w.is_owner)).toEqual([
      expect.objectContaining({ name: 'Beta', visibility: 'public', is_owner: false }),
    ]);
    const publicOnly = await expectWorkflowsAsModel('public', { limit: 100 });
    expect(publicOnly.meta.total_count).toBe(2);
    const secret = await expectWorkflowsAsModel('accessible', { search: 'secret' });
    expect(secret).toMatchObject({ data: [], meta: { total_count: 0 } });
    const theirsOwned = await get(theirs.key, '/workflows?scope=owned&limit=100');
    expect(theirsOwned.meta.total_count).toBe(3);
    expect(theirsOwned.data.some((w: { id: string }) => [...ids.values()].includes(w.id))).toBe(
      false,
    );
  });

  it('answers each listed workflow exactly as GET /workflows/{id} does', async () => {
    const body = await get(mine.key, '/workflows?limit=100');
    for (const workflow of body.data) {
      expect((await get(mine.key, `/workflows/${workflow.id}`)).data).toEqual(workflow);
    }
  });

  describe('agents', () => {
    const AGENT_MODEL: ListModel<AgentEntity> = {
      search: ['name', 'description', 'businessName'],
      sort: { name: 'name', status: 'status', created_at: 'createdAt', updated_at: 'updatedAt' },
      defaultSort: '-created_at',
    };

    async function expectAgentsAsModel(key: TeamKey, query: Record<string, string | number>) {
      const body = await get(key.key, `/agents?${queryString(query)}`);
      const rows = (await t.dataSource().manager.find(AgentEntity)).filter(
        (agent) => agent.teamId === key.teamId && (!query.status || agent.status === query.status),
      );
      const expected = expectedPage(rows, { page: 1, limit: 20, ...query }, AGENT_MODEL, engine());
      expect({ ids: body.data.map((a: { id: string }) => a.id), meta: body.meta }).toEqual(
        expected,
      );
      return body;
    }

    beforeAll(async () => {
      const workflowId = ids.values().next().value!;
      const agents = [
        { name: 'Ada', business_name: 'Corner Shop' },
        { name: 'Ada', business_name: null },
        { name: 'Bob', description: 'Sells SHOES' },
        { name: 'Cy', business_name: 'Shoe Shop' },
        { name: 'Ada', business_name: null },
      ];
      const created = [];
      for (const fields of agents) {
        created.push(await createAgent(t, { ...fields, workflow_id: workflowId }, mine.key));
      }
      for (const agent of [created[1], created[3]]) {
        await t
          .api(mine.key)
          .patch(`${API}/agents/${agent.id}/live-status`)
          .send({ status: 'live' })
          .expect(200);
      }
      await createAgent(t, { name: 'Ada', business_name: 'Shoe Shop' }, theirs.key);
    });

    it('pages, sorts either way with ties, filters by status and searches, as the model does', async () => {
      for (const sort of ['name', '-name', 'status', '-status', 'created_at', '-updated_at']) {
        await expectAgentsAsModel(mine, { sort, limit: 100 });
        await expectAgentsAsModel(mine, { sort, limit: 2, page: 2 });
      }
      expect((await expectAgentsAsModel(mine, { status: 'live' })).meta.total_count).toBe(2);
      const shoes = await expectAgentsAsModel(mine, { search: 'shoe', sort: 'name' });
      expect(shoes.data.map((a: { name: string }) => a.name)).toEqual(['Bob', 'Cy']);
      const pastEnd = await expectAgentsAsModel(mine, { status: 'development', limit: 2, page: 3 });
      expect(pastEnd).toMatchObject({ data: [], meta: { total_count: 3, page_count: 2 } });
    });

    it("never shows or counts another team's agents", async () => {
      expect((await expectAgentsAsModel(mine, { limit: 100 })).meta.total_count).toBe(5);
      const theirsOnly = await expectAgentsAsModel(theirs, { search: 'shop', limit: 100 });
      expect(theirsOnly.meta.total_count).toBe(1);
      expect((await expectAgentsAsModel(theirs, { search: 'corner' })).meta.total_count).toBe(0);
    });

    it('answers each listed agent with the fields GET /agents/{id} has', async () => {
      const body = await get(mine.key, '/agents?limit=100');
      for (const agent of body.data) {
        expect((await get(mine.key, `/agents/${agent.id}`)).data).toMatchObject(agent);
      }
    });
  });
});
