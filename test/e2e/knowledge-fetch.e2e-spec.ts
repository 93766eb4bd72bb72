import { createServer, Server } from 'node:http';
import { KnowledgeBaseEntity } from '@/modules/knowledge/entities/knowledge-base.entity';
import { KnowledgeFetchRepository } from '@/modules/knowledge/fetch/knowledge-fetch.repository';
import { KnowledgeFetchService } from '@/modules/knowledge/fetch/knowledge-fetch.service';
import { AddressInfo } from 'node:net';
import { createAgent } from '../factories/agents';
import { allMessages, repliesSettled, sendAs } from '../factories/conversations';
import { createKnowledgeBase } from '../factories/knowledge-bases';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { createWebhook } from '../factories/webhooks';
import { pollUntil } from '../support/wait';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';

const FERRY_PAGE = `<!doctype html><html><head><title>Lumo Island ferry</title>
<style>body { font-family: sans-serif }</style><script>window.tracking = 'menu sitemap';</script>
</head><body>
<nav><a href="/">Home</a> <a href="/tickets">Tickets</a> <a href="/sitemap">Sitemap</a></nav>
<header>Lumo Ferries, since 1952</header>
<main><h1>Timetable</h1>
<p>The first ferry to Lumo Island leaves pier 3 at 7:40 every morning; the last one comes back
at 21:15. The crossing takes about fifty minutes.</p>
<p>Bicycles travel free of charge. Dogs are welcome on the open deck when kept on a leash, and
cars must be booked at least a day ahead.</p></main>
<footer>Copyright Lumo Ferries. Privacy policy. Cookie settings.</footer>
</body></html>`;

/** A site on 127.0.0.1 serving the pages the tests fetch; `notes` can be changed meanwhile. */
function pageServer(): { server: Server; state: { notes: string } } {
  const state = { notes: 'Our warehouse sale runs every first Friday of the month.' };
  const server = createServer((req, res) => {
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    };
    switch (req.url ?? '') {
      case '/ferry':
        return send(200, 'text/html; charset=utf-8', FERRY_PAGE);
      case '/notes.md':
        return send(200, 'text/markdown', state.notes);
      case '/horario':
        return send(
          200,
          'text/plain; charset=utf-8',
          'Horario de la tienda: de lunes a sábado de 9:00 a 20:00.\n\n' +
            'Los domingos y festivos abrimos solo por la mañana, de 10:00 a 14:00.',
        );
      case '/missing':
        return send(404, 'text/html', '<h1>Not here</h1>');
      case '/slow':
        return; // never answers: only the fetch's time cap ends it
      case '/huge':
        return send(200, 'text/plain', Buffer.alloc(5 * 1024 * 1024 + 10, 'a'));
      case '/brochure.pdf':
        return send(200, 'application/pdf', Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj'));
      case '/to-metadata':
        res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      case '/hop':
        res.writeHead(301, { Location: '/ferry' });
        return res.end();
      default:
        return send(404, 'text/plain', 'Not found');
    }
  });
  return { server, state };
}

describe('knowledge that answers', () => {
  let t: TestApp;
  let site: string;
  let server: Server;
  let state: { notes: string };
  let agentId: string;
  let workflowId: string;
  let base: string;
  let handoff: string;
  let users = 0;

  beforeAll(async () => {
    ({ server, state } = pageServer());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Long enough that a loaded machine still reads /huge's declared size before the cap.
    t = await startTestApp({ KNOWLEDGE_FETCH_TIMEOUT_MS: '3000' });
    workflowId = (
      await createWorkflow(t, {
        name: 'Shop',
        faq: [
          {
            question: 'Do you offer gift wrapping?',
            answer: 'Yes: gift wrapping costs 3 euros per parcel, with a handwritten card.',
          },
          { question: '¿Abren los domingos?', answer: 'Sí, los domingos de 10:00 a 14:00.' },
        ],
      })
    ).id;
    const agent = await createAgent(t, { workflow_id: workflowId, business_name: 'Lumo' });
    agentId = agent.id;
    base = `${API}/agents/${agentId}/knowledge_bases`;
    handoff = 'Thanks for your message. Someone from the Lumo team will get back to you shortly.';
  });
  afterAll(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The agent's reply to `question`, asked by a new channel user. */
  async function ask(question: string): Promise<string> {
    const sent = await sendAs(t, agentId, `visitor-${++users}`, question);
    await repliesSettled(t);
    const messages = await allMessages(t, agentId, sent.conversation_id);
    return messages.filter((m) => m.role === 'assistant').at(-1)!.message;
  }

  /** Adds a URL item and waits until its fetch settles. */
  async function fetched(url: string): Promise<Record<string, any>> {
    const created = await createKnowledgeBase(t, agentId, { type: 'url', name: 'Page', url });
    expect(created).toMatchObject({ status: 'pending', error: null, fetched_at: null });
    return settled(created.id);
  }

  async function settled(id: string, after?: string): Promise<Record<string, any>> {
    const { value } = await pollUntil(
      async () => (await t.api().get(`${base}/${id}`).expect(200)).body.data,
      (kb) => kb.status !== 'pending' && kb.fetched_at !== after,
      10_000,
      50,
    );
    return value;
  }

  it('fetches a page, keeps its readable text only, and answers from it', async () => {
    expect(await ask('when does the first boat to lumo island leave?')).toBe(handoff);
    const kb = await fetched(`${site}/hop`);
    expect(kb).toMatchObject({ status: 'ready', error: null, fetched_at: expect.any(String) });
    expect(kb.content).toContain('The first ferry to Lumo Island leaves pier 3 at 7:40');
    expect(kb.content).toContain('Bicycles travel free of charge.');
    for (const furniture of [
      'Sitemap',
      'since 1952',
      'Cookie settings',
      'tracking',
      'sans-serif',
    ]) {
      expect(kb.content).not.toContain(furniture);
    }
    expect(await ask('When does the first boat to Lumo island leave?')).toMatch(
      /The first ferry to Lumo Island leaves pier 3 at 7:40/,
    );
    expect(await ask('are bicycles free on the ferry?')).toMatch(/^Bicycles travel free/);
    // The page's title ("Lumo Island ferry") is read with each of its passages.
    expect(await ask('are dogs allowed on the lumo ferry?')).toMatch(/Dogs are welcome/);
  });

  it.each([
    ['/missing', 'the page answered 404 Not Found'],
    ['/slow', 'the page took longer than 3 s'],
    ['/huge', 'the page is larger than 5 MiB'],
    ['/to-metadata', 'the address resolves to a private network address (169.254.169.254)'],
    ['/brochure.pdf', 'the page is not text (application/pdf)'],
  ])('marks %s failed with an error a person can act on', async (path, error) => {
    const kb = await fetched(`${site}${path}`);
    expect(kb).toMatchObject({ status: 'failed', error, content: null });
    expect(kb.fetched_at).toEqual(expect.any(String));
    // The rest of the agent's knowledge keeps answering.
    expect(await ask('Do you do gift wrapping?')).toMatch(/^Yes: gift wrapping costs 3 euros/);
  });

  it('tells webhooks when a page turns ready or failed, with the item in its API shape', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const { id: webhookId, secret } = await createWebhook(t, receiver.url, [
        'knowledge_base.ready',
        'knowledge_base.failed',
      ]);
      const ready = await fetched(`${site}/ferry`);
      const failed = await fetched(`${site}/missing`);
      const events = await receiver.waitFor((all) => all.length === 2);
      const byType = Object.fromEntries(events.map((event) => [event.body.type, event]));
      expect(byType['knowledge_base.ready'].body.data).toEqual(ready);
      expect(byType['knowledge_base.failed'].body.data).toEqual(failed);
      for (const event of events) {
        expect(verifySignature(secret, event)).toBe(true);
      }
      await t.api().delete(`${API}/webhooks/${webhookId}`).expect(200);
    } finally {
      await receiver.close();
    }
  });

  it('fetches again on refresh (202) and when the url changes', async () => {
    const kb = await fetched(`${site}/notes.md`);
    expect(kb).toMatchObject({ status: 'ready', content: state.notes });
    expect(await ask('when is the warehouse sale?')).toBe(state.notes);

    state.notes = 'The warehouse sale moved to the last Saturday of the month.';
    const refresh = await t.api().post(`${base}/${kb.id}/refresh`).expect(202);
    expect(refresh.body.data).toMatchObject({ id: kb.id, status: 'pending', error: null });
    const refreshed = await settled(kb.id, kb.fetched_at);
    expect(refreshed).toMatchObject({ status: 'ready', content: state.notes });
    expect(await ask('when is the warehouse sale?')).toBe(state.notes);

    await t
      .api()
      .patch(`${base}/${kb.id}`)
      .send({ url: `${site}/missing` })
      .expect(200);
    expect(await settled(kb.id, refreshed.fetched_at)).toMatchObject({
      status: 'failed',
      error: 'the page answered 404 Not Found',
    });

    const text = await createKnowledgeBase(t, agentId);
    expect(text).toMatchObject({ status: 'ready', error: null });
    const textRefresh = await t.api().post(`${base}/${text.id}/refresh`).expect(409);
    expect(textRefresh.body.code).toBe('conflict');
    expect((await t.api().get(`${base}/${text.id}`).expect(200)).body.data).toMatchObject({
      status: 'ready',
      error: null,
    });
  });

  it('answers from the workflow FAQ, word for word and paraphrased, and follows its changes', async () => {
    const wrapping = 'Yes: gift wrapping costs 3 euros per parcel, with a handwritten card.';
    expect(await ask('Do you offer gift wrapping?')).toBe(wrapping);
    expect(await ask('can you gift wrap it for me?')).toBe(wrapping);
    await t
      .api()
      .patch(`${API}/workflows/${workflowId}`)
      .send({
        faq: [
          { question: 'Is there parking?', answer: 'Free parking behind the shop.' },
          { question: '¿Abren los domingos?', answer: 'Sí, los domingos de 10:00 a 14:00.' },
        ],
      })
      .expect(200);
    expect(await ask('is there somewhere to park at the shop?')).toBe(
      'Free parking behind the shop.',
    );
    expect(await ask('Do you offer gift wrapping?')).toBe(handoff);
  });

  it('finds Spanish knowledge for Spanish questions, accents or not', async () => {
    await fetched(`${site}/horario`);
    expect(await ask('¿Qué horario tienen el sabado?')).toMatch(/^Horario de la tienda/);
    expect(await ask('¿Abren el domingo?')).toBe('Sí, los domingos de 10:00 a 14:00.');
    expect(await ask('¿abris los festivos por la manana?')).toMatch(/^Los domingos y festivos/);
  });

  it('fetches a page under one lease at a time, and again once a lease runs out', async () => {
    const queue = t.app.get(KnowledgeFetchRepository);
    const fetches = t.app.get(KnowledgeFetchService);
    const items = t.dataSource().getRepository(KnowledgeBaseEntity);
    const kb = await fetched(`${site}/notes.md`);
    expect(await queue.claim(kb.id, 60_000)).toBeNull(); // fetched, not due

    await items.update({ id: kb.id }, { status: 'pending' });
    const held = await queue.claim(kb.id, 60_000);
    expect(held?.token).toEqual(expect.any(String));
    expect(await queue.claim(kb.id, 60_000)).toBeNull();
    const item = await items.findOneByOrFail({ id: kb.id });
    expect(await fetches.settleFetch(item, 'not-the-token', { text: 'stale' })).toBeNull();
    expect(await fetches.settleFetch(item, held!.token, { text: 'Fresh text.' })).toMatchObject({
      status: 'ready',
      content: 'Fresh text.',
    });

    // A worker that died mid-fetch: its lease runs out, and a sweep fetches the page again.
    await items.update({ id: kb.id }, { status: 'pending' });
    const dead = await queue.claim(kb.id, 200);
    expect(dead?.token).toEqual(expect.any(String));
    const retried = await settled(
      kb.id,
      (await t.api().get(`${base}/${kb.id}`)).body.data.fetched_at,
    );
    expect(retried).toMatchObject({ status: 'ready', content: state.notes });
    expect(await fetches.settleFetch(item, dead!.token, { text: 'too late' })).toBeNull();

    // One whose fetches keep being cut short is given up, with a reason.
    await items.update({ id: kb.id }, { status: 'pending', fetchAttempts: 3 });
    expect(await settled(kb.id, retried.fetched_at)).toMatchObject({
      status: 'failed',
      error: 'fetching the page was interrupted 3 times',
      content: state.notes,
    });
  });

  it("meets typos, irregular forms and synonyms of the knowledge's words", async () => {
    const bicycles = 'Bicycle rental: bicycles are rented at the harbour kiosk for 15 euros a day.';
    const lost =
      'Lost property: anything travellers leave on board is kept at the harbour office for 30 days.';
    await createKnowledgeBase(t, agentId, {
      type: 'text',
      name: 'Harbour',
      content: `${bicycles}\n\n${lost}`,
    });
    expect(await ask('how much is bicyle rental?')).toBe(bicycles);
    expect(await ask('i left my scarf on board')).toBe(lost);
    expect(await ask('can I hire a bike at the harbour?')).toBe(bicycles);
  });

  it('hands off what the knowledge does not answer', async () => {
    expect(await ask('Do you sell concert tickets for the island festival?')).toBe(handoff);
  });
});
