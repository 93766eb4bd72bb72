import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { flatHtml, nestedHtml } from '../support/hostile-pages';
import { pollUntil } from '../support/wait';

const MIB = 1024 * 1024;
const QUOTA = 'knowledge text would pass its limit of 1 MB (KNOWLEDGE_MAX_MB_PER_TEAM)';

/** `bytes` of plain ASCII prose (one byte a character). */
const prose = (bytes: number) =>
  'Our shop sells bicycles and repairs them. '.repeat(Math.ceil(bytes / 42)).slice(0, bytes);

/** A site on 127.0.0.1; `served(path)` resolves once a response for `path` has been sent whole. */
function pageServer() {
  const waiting = new Map<string, () => void>();
  const pages: Record<string, [string, string]> = {
    '/nested': ['text/html', nestedHtml(2 * MIB)],
    '/oversized': ['text/html', flatHtml(3 * MIB)],
    '/prices': ['text/html', '<main><h1>Prices</h1><p>A day ticket costs 12 euros.</p></main>'],
    '/catalogue.txt': ['text/plain', prose(100_000)],
  };
  const server: Server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.on('finish', () => waiting.get(req.url!)?.());
    res.writeHead(200, { 'Content-Type': `${page[0]}; charset=utf-8` }).end(page[1]);
  });
  const served = (path: string) => new Promise<void>((resolve) => waiting.set(path, resolve));
  return { server, served };
}

describe('knowledge within its caps: pages read off the event loop, text capped per team', () => {
  let t: TestApp;
  let server: Server;
  let served: (path: string) => Promise<void>;
  let site: string;

  beforeAll(async () => {
    ({ server, served } = pageServer());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startTestApp({
      KNOWLEDGE_READ_TIMEOUT_MS: '3000',
      KNOWLEDGE_PAGE_MAX_KB: '2560',
      KNOWLEDGE_MAX_MB_PER_TEAM: '1',
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A new team with one agent: the path of its knowledge bases, and its key. */
  async function team(name: string): Promise<{ base: string; key: string }> {
    const { key }: TeamKey = await t.createKey(name, ['*']);
    const agent = await createAgent(t, {}, key);
    return { base: `${API}/agents/${agent.id}/knowledge_bases`, key };
  }

  async function addUrl(owner: { base: string; key: string }, path: string) {
    const res = await t
      .api(owner.key)
      .post(owner.base)
      .send({ type: 'url', name: path, url: `${site}${path}` })
      .expect(201);
    return res.body.data as Record<string, any>;
  }

  async function settled(owner: { base: string; key: string }, id: string) {
    const { value } = await pollUntil(
      async () => (await t.api(owner.key).get(`${owner.base}/${id}`).expect(200)).body.data,
      (kb) => kb.status !== 'pending',
      20_000,
      50,
    );
    return value as Record<string, any>;
  }

  it("reads a deeply nested page in a thread: another team's requests answer meanwhile, and the page fails at its time cap", async () => {
    const owner = await team('nested-page-owner');
    const neighbour = await team('nested-page-neighbour');
    const onSite = served('/nested');
    const kb = await addUrl(owner, '/nested');
    await onSite;
    for (let i = 0; i < 10; i++) {
      await t.api(neighbour.key).get(neighbour.base).expect(200);
      await t
        .api(neighbour.key)
        .post(neighbour.base)
        .send({ type: 'text', name: `Note ${i}`, content: 'We open at 9.' })
        .expect(201);
    }
    // Every one of those was answered while the page was still being read.
    expect(
      (await t.api(owner.key).get(`${owner.base}/${kb.id}`).expect(200)).body.data,
    ).toMatchObject({
      status: 'pending',
    });

    expect(await settled(owner, kb.id)).toMatchObject({
      status: 'failed',
      error: 'the page took longer than 3 s to read',
      content: null,
      fetched_at: expect.any(String),
    });
    // A thread stopped at the cap leaves the next page to a fresh one.
    const prices = await settled(owner, (await addUrl(owner, '/prices')).id);
    expect(prices).toMatchObject({ status: 'ready', error: null });
    expect(prices.content).toContain('A day ticket costs 12 euros.');
  });

  it('fails a page larger than KNOWLEDGE_PAGE_MAX_KB without parsing it', async () => {
    const owner = await team('oversized-page-owner');
    expect(await settled(owner, (await addUrl(owner, '/oversized')).id)).toMatchObject({
      status: 'failed',
      error: 'the page is larger than 2.5 MiB of HTML',
      content: null,
    });
  });

  it('refuses knowledge text beyond KNOWLEDGE_MAX_MB_PER_TEAM: 403 on create and update, a failed fetch', async () => {
    const owner = await team('knowledge-at-cap');
    const create = (content: string) =>
      t.api(owner.key).post(owner.base).send({ type: 'text', name: 'Catalogue', content });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await create(prose(200_000)).expect(201)).body.data.id);
    }
    // 1,000,000 bytes stored, of 1,048,576.
    const refused = await create(prose(100_000)).expect(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', message: `The team's ${QUOTA}` });
    // Counted in UTF-8 bytes: 30,000 characters of two bytes each pass the cap where ASCII would not.
    await create('é'.repeat(30_000)).expect(403);
    const small = (await create(prose(40_000)).expect(201)).body.data.id as string;

    const patch = (id: string, content: string) =>
      t.api(owner.key).patch(`${owner.base}/${id}`).send({ content });
    expect((await patch(small, prose(100_000)).expect(403)).body.message).toBe(
      `The team's ${QUOTA}`,
    );
    // A change that adds nothing passes, at the cap as below it.
    await patch(ids[0], prose(200_000).toUpperCase()).expect(200);
    await patch(small, prose(10_000)).expect(200);

    const fetched = await settled(owner, (await addUrl(owner, '/catalogue.txt')).id);
    expect(fetched).toMatchObject({
      status: 'failed',
      error: `the team's ${QUOTA}`,
      content: null,
    });

    // Other teams are not held by this team's cap; room made by a delete is usable again.
    const neighbour = await team('knowledge-below-cap');
    await t
      .api(neighbour.key)
      .post(neighbour.base)
      .send({ type: 'text', name: 'A', content: prose(200_000) })
      .expect(201);
    await t.api(owner.key).delete(`${owner.base}/${ids[1]}`).expect(200);
    await t.api(owner.key).post(`${owner.base}/${fetched.id}/refresh`).expect(202);
    expect(await settled(owner, fetched.id)).toMatchObject({ status: 'ready', error: null });
  });
});
