import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createAgent } from '../factories/agents';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { flatHtml, nestedHtml } from '../support/hostile-pages';
import { pollUntil } from '../support/wait';

const MIB = 1024 * 1024;

/** A site on 127.0.0.1; `served(path)` resolves once a response for `path` has been sent whole. */
function pageServer() {
  const waiting = new Map<string, () => void>();
  const pages: Record<string, [string, string]> = {
    '/nested': ['text/html', nestedHtml(2 * MIB)],
    '/oversized': ['text/html', flatHtml(3 * MIB)],
    '/prices': ['text/html', '<main><h1>Prices</h1><p>A day ticket costs 12 euros.</p></main>'],
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

describe('knowledge pages read off the event loop, within a time and a size cap', () => {
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
});
