import { KnowledgePassageEntity } from '@/modules/knowledge/entities/knowledge-base.entity';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';

describe('knowledge bases', () => {
  let t: TestApp;
  let agentId: string;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    agentId = (await createAgent(t)).id;
    base = `${API}/agents/${agentId}/knowledge_bases`;
  });
  afterAll(() => t.close());

  const passagesOf = (knowledgeBaseId: string) =>
    t
      .dataSource()
      .getRepository(KnowledgePassageEntity)
      .find({ where: { knowledgeBaseId }, order: { position: 'ASC' } });

  it('creates a text item, keeps its text searchable as passages, and reads it back', async () => {
    const content = 'Our store opens at 9am.\n\nRefunds take five business days.';
    const res = await t
      .api()
      .post(base)
      .send({ type: 'text', name: 'FAQ', description: 'Common questions', content })
      .expect(201);
    expect(res.body.message).toBe('Knowledge base created successfully');
    expect(res.body.data).toEqual({
      id: expect.any(String),
      type: 'text',
      name: 'FAQ',
      description: 'Common questions',
      url: null,
      content,
      status: 'ready',
      error: null,
      fetched_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await passagesOf(res.body.data.id)).map((p) => p.content)).toEqual([
      'Our store opens at 9am.',
      'Refunds take five business days.',
    ]);
    const read = await t.api().get(`${base}/${res.body.data.id}`).expect(200);
    expect(read.body.data).toEqual(res.body.data);
  });

  it('creates a URL item', async () => {
    const res = await t
      .api()
      .post(base)
      .send({ type: 'url', name: 'Site', url: 'http://127.0.0.1:9/faq' })
      .expect(201);
    expect(res.body.data).toMatchObject({
      type: 'url',
      url: 'http://127.0.0.1:9/faq',
      content: null,
      status: 'pending',
      error: null,
      description: null,
    });
  });

  it('validates by type', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'text', name: 'n' }, 'content: must not be empty'],
      [{ type: 'text', name: 'n', content: '' }, 'content: must not be empty'],
      [{ type: 'url', name: 'n' }, 'url: must be a string'],
      [{ type: 'url', name: 'n', url: 'ftp://example.com/x' }, 'url: must be an http(s) URL'],
      [{ type: 'url', name: 'n', url: 'javascript:alert(1)' }, 'url: must be an http(s) URL'],
      [
        { type: 'text', name: 'n', content: 'c', url: 'https://e.com' },
        'url: is only allowed when type is url',
      ],
      [
        { type: 'url', name: 'n', url: 'https://e.com', content: 'c' },
        'content: is only allowed when type is text',
      ],
      [{ type: 'pdf', name: 'n' }, 'type: must be one of the following values: text, url'],
      [{ type: 'text', content: 'c' }, 'name: must not be empty'],
      [
        { type: 'text', name: 'n', content: 'x'.repeat(200_001) },
        'content: must be shorter than or equal to 200000 characters',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await t.api().post(base).send(body).expect(400);
      expect(res.body.message).toContain(message);
    }
  });

  it('accepts the largest allowed text and slices it into bounded passages', async () => {
    const sentence = 'Delivery within Lagos takes one day and costs two thousand naira. ';
    const content = sentence.repeat(Math.floor(200_000 / sentence.length));
    const res = await t.api().post(base).send({ type: 'text', name: 'Big', content }).expect(201);
    const passages = await passagesOf(res.body.data.id);
    expect(passages.length).toBeGreaterThan(200);
    expect(passages.every((p) => p.content.length <= 1200)).toBe(true);
  });

  it('lists as a plain array, and updates with passages refreshed', async () => {
    const created = (
      await t.api().post(base).send({ type: 'text', name: 'Old', content: 'Old text.' }).expect(201)
    ).body.data;
    const updated = await t
      .api()
      .patch(`${base}/${created.id}`)
      .send({ name: 'New', content: 'New text.', description: null })
      .expect(200);
    expect(updated.body.data).toMatchObject({
      name: 'New',
      content: 'New text.',
      description: null,
      type: 'text',
    });
    expect((await passagesOf(created.id)).map((p) => p.content)).toEqual(['New text.']);
    const list = await t.api().get(base).expect(200);
    expect(list.body.meta).toBeUndefined();
    expect(list.body.data.map((kb: { id: string }) => kb.id)).toContain(created.id);
    for (const item of list.body.data as Array<Record<string, unknown>>) {
      expect(Object.keys(item).sort()).toEqual([
        'content',
        'created_at',
        'description',
        'error',
        'fetched_at',
        'id',
        'name',
        'status',
        'type',
        'updated_at',
        'url',
      ]);
    }
    const wrongField = await t
      .api()
      .patch(`${base}/${created.id}`)
      .send({ url: 'https://e.com' })
      .expect(400);
    expect(wrongField.body.message).toEqual(['url: is only allowed when type is url']);
    await t.api().patch(`${base}/${created.id}`).send({ type: 'url' }).expect(400);
  });

  it('deletes an item with its passages', async () => {
    const created = (
      await t
        .api()
        .post(base)
        .send({ type: 'text', name: 'Gone', content: 'Soon gone.' })
        .expect(201)
    ).body.data;
    expect(
      await t
        .api()
        .delete(`${base}/${created.id}`)
        .expect(200)
        .then((r) => r.body),
    ).toEqual({
      message: 'Knowledge base deleted successfully',
      data: null,
    });
    await t.api().get(`${base}/${created.id}`).expect(404);
    expect(await passagesOf(created.id)).toEqual([]);
  });

  it("keeps each owner's passage count as its passages come and go", async () => {
    const sizes = async () => {
      const rows = await t
        .dataSource()
        .query<Array<{ owner_key: string; passages: number | string; actual: number | string }>>(
          `SELECT "s"."owner_key", "s"."passages", (SELECT count(*) FROM "knowledge_passages" "p"
           WHERE "p"."owner_key" = "s"."owner_key") AS "actual"
         FROM "knowledge_owner_sizes" "s"`,
        );
      return rows.map((row) => [row.owner_key, Number(row.passages), Number(row.actual)]);
    };
    const created = (
      await t
        .api()
        .post(base)
        .send({ type: 'text', name: 'Counted', content: 'One.\n\nTwo.\n\nThree.' })
        .expect(201)
    ).body.data;
    await t.api().patch(`${base}/${created.id}`).send({ content: 'Only one now.' }).expect(200);
    const owner = `o${agentId.replace(/-/g, '')}`;
    const afterUpdate = await sizes();
    expect(afterUpdate.find(([key]) => key === owner)![1]).toBeGreaterThan(0);
    await t.api().delete(`${base}/${created.id}`).expect(200);
    for (const [, counted, actual] of [...afterUpdate, ...(await sizes())]) {
      expect(counted).toBe(actual);
    }
  });

  it('answers 404 for an unknown agent or item', async () => {
    await t
      .api()
      .get(`${API}/agents/00000000-0000-7000-8000-000000000000/knowledge_bases`)
      .expect(404);
    await t.api().get(`${base}/00000000-0000-7000-8000-000000000000`).expect(404);
  });
});
