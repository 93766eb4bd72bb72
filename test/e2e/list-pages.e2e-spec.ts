import { Brackets } from 'typeorm';
import { ListQueryDto } from '@/common/pagination/list-query.dto';
import { paginate } from '@/common/pagination/paginate';
import { AGENT_LIST } from '@/modules/agents/agents.repository';
import { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { WORKFLOW_LIST } from '@/modules/workflows/workflows.repository';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';

/**
 * GET /workflows and GET /agents read a page and its total in one statement of our own
 * (common/pagination/list-statements.ts). Their pages must be the ones the ORM's `paginate`
 * reads for the same query, which still serves the other lists: same rows in the same order,
 * ties included, and the same meta, on the engine the suite runs on.
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

  const listQuery = (query: Record<string, string | number>): ListQueryDto =>
    Object.assign(new ListQueryDto(), query);

  /** The page the ORM reads for `scope` and `query`. */
  async function ormWorkflows(
    teamId: string,
    scope: string,
    query: Record<string, string | number>,
  ) {
    const builder = t.dataSource().manager.createQueryBuilder(WorkflowEntity, 'workflow');
    if (scope === 'owned') {
      builder.where('workflow.team_id = :teamId', { teamId });
    } else if (scope === 'public') {
      builder.where("workflow.visibility = 'public'");
    } else {
      builder.where(
        new Brackets((where) =>
          where
            .where('workflow.team_id = :teamId', { teamId })
            .orWhere("workflow.visibility = 'public'"),
        ),
      );
    }
    const page = await paginate(builder, listQuery(query), WORKFLOW_LIST);
    return { ids: page.items.map((workflow) => workflow.id), meta: page.meta };
  }

  const queryString = (query: Record<string, string | number>) =>
    new URLSearchParams(
      Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString();

  async function expectWorkflowsAsOrm(scope: string, query: Record<string, string | number>) {
    const body = await get(mine.key, `/workflows?${queryString({ scope, ...query })}`);
    const expected = await ormWorkflows(mine.teamId, scope, { page: 1, limit: 20, ...query });
    expect({ ids: body.data.map((w: { id: string }) => w.id), meta: body.meta }).toEqual(expected);
    return body;
  }

  it('pages through every row once, with the total on each page', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = await expectWorkflowsAsOrm('owned', { limit: 3, page });
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
    const body = await expectWorkflowsAsOrm('owned', { limit: 5, page: 4 });
    expect(body).toMatchObject({
      data: [],
      meta: { total_count: 7, page_count: 2, current_page: 4, has_next_page: false },
    });
    const searched = await expectWorkflowsAsOrm('accessible', { search: 'refunds', page: 2 });
    expect(searched).toMatchObject({ data: [], meta: { total_count: 3, page_count: 1 } });
    const nothing = await expectWorkflowsAsOrm('owned', { search: 'no such words' });
    expect(nothing).toMatchObject({ data: [], meta: { total_count: 0, page_count: 0 } });
  });

  it.each(['name', 'category', 'created_at', 'updated_at'])(
    'sorts by %s either way, ties broken by id in the same direction',
    async (field) => {
      for (const sort of [field, `-${field}`]) {
        for (const scope of ['owned', 'accessible', 'public']) {
          await expectWorkflowsAsOrm(scope, { sort, limit: 100 });
          await expectWorkflowsAsOrm(scope, { sort, limit: 2, page: 2 });
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
    const refunds = await expectWorkflowsAsOrm('owned', { search: 'REFUNDS' });
    expect(refunds.data.map((w: { name: string }) => w.name)).toEqual(['Beta', 'Beta']);
    expect((await expectWorkflowsAsOrm('owned', { search: '100%' })).meta.total_count).toBe(1);
    expect((await expectWorkflowsAsOrm('owned', { search: '_' })).meta.total_count).toBe(1);
    expect((await expectWorkflowsAsOrm('owned', { search: 'SALES' })).meta.total_count).toBe(2);
    await expectWorkflowsAsOrm('accessible', { search: 'alpha', sort: 'name', limit: 1 });
  });

  it("never shows or counts another team's private rows, and shows its public ones only where asked", async () => {
    const owned = await expectWorkflowsAsOrm('owned', { limit: 100 });
    expect(owned.data.every((w: { is_owner: boolean }) => w.is_owner)).toBe(true);
    const accessible = await expectWorkflowsAsOrm('accessible', { limit: 100 });
    expect(accessible.meta.total_count).toBe(8);
    expect(accessible.data.filter((w: { is_owner: boolean }) => !w.is_owner)).toEqual([
      expect.objectContaining({ name: 'Beta', visibility: 'public', is_owner: false }),
    ]);
    const publicOnly = await expectWorkflowsAsOrm('public', { limit: 100 });
    expect(publicOnly.meta.total_count).toBe(2);
    const secret = await expectWorkflowsAsOrm('accessible', { search: 'secret' });
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
    async function expectAgentsAsOrm(key: TeamKey, query: Record<string, string | number>) {
      const body = await get(key.key, `/agents?${queryString(query)}`);
      const builder = t
        .dataSource()
        .manager.createQueryBuilder(AgentEntity, 'agent')
        .where('agent.team_id = :teamId', { teamId: key.teamId });
      if (query.status) {
        builder.andWhere('agent.status = :status', { status: query.status });
      }
      const page = await paginate(builder, listQuery({ page: 1, limit: 20, ...query }), AGENT_LIST);
      expect({ ids: body.data.map((a: { id: string }) => a.id), meta: body.meta }).toEqual({
        ids: page.items.map((agent) => agent.id),
        meta: page.meta,
      });
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

    it('pages, sorts either way with ties, filters by status and searches, as the ORM does', async () => {
      for (const sort of ['name', '-name', 'status', '-status', 'created_at', '-updated_at']) {
        await expectAgentsAsOrm(mine, { sort, limit: 100 });
        await expectAgentsAsOrm(mine, { sort, limit: 2, page: 2 });
      }
      expect((await expectAgentsAsOrm(mine, { status: 'live' })).meta.total_count).toBe(2);
      const shoes = await expectAgentsAsOrm(mine, { search: 'shoe', sort: 'name' });
      expect(shoes.data.map((a: { name: string }) => a.name)).toEqual(['Bob', 'Cy']);
      const pastEnd = await expectAgentsAsOrm(mine, { status: 'development', limit: 2, page: 3 });
      expect(pastEnd).toMatchObject({ data: [], meta: { total_count: 3, page_count: 2 } });
    });

    it("never shows or counts another team's agents", async () => {
      expect((await expectAgentsAsOrm(mine, { limit: 100 })).meta.total_count).toBe(5);
      const theirsOnly = await expectAgentsAsOrm(theirs, { search: 'shop', limit: 100 });
      expect(theirsOnly.meta.total_count).toBe(1);
      expect((await expectAgentsAsOrm(theirs, { search: 'corner' })).meta.total_count).toBe(0);
    });

    it('answers each listed agent with the fields GET /agents/{id} has', async () => {
      const body = await get(mine.key, '/agents?limit=100');
      for (const agent of body.data) {
        expect((await get(mine.key, `/agents/${agent.id}`)).data).toMatchObject(agent);
      }
    });
  });
});
