import fc from 'fast-check';
import { createAgent } from '../factories/agents';
import { connectWhatsApp } from '../factories/channels';
import { conversationsPath, repliesSettled } from '../factories/conversations';
import { startTestApp, TestApp } from '../factories/test-app';
import { FakeGraphApi, signMeta, whatsappTextNotification } from '../support/fake-graph-api';
import { recordSecret } from '../support/log-capture';

const APP_SECRET = 'fuzz-webhook-secret';

/** A JSON value of every shape: the bodies a hostile or broken sender could sign. */
const anyJson = fc.jsonValue({ maxDepth: 6 });

/** A WhatsApp notification with parts replaced by wrong types, nested deep, or made huge. */
function mangled(phoneNumberId: string) {
  return fc
    .record({
      from: fc.oneof(fc.string({ maxLength: 40 }), anyJson),
      text: fc.oneof(fc.string({ maxLength: 5000 }), anyJson),
      id: fc.oneof(fc.string({ maxLength: 300 }), anyJson),
      extra: anyJson,
      repeat: fc.integer({ min: 0, max: 300 }),
    })
    .map(({ from, text, id, extra, repeat }) => {
      const body = whatsappTextNotification({
        phoneNumberId,
        from: 'x',
        text: 'x',
        id: 'x',
      }) as Record<string, any>;
      const value = body.entry[0].changes[0].value;
      value.messages[0].from = from;
      value.messages[0].text = { body: text };
      value.messages[0].id = id;
      value.messages = [...value.messages, ...Array.from({ length: repeat }, () => extra)];
      value.contacts = extra;
      return body;
    });
}

/** docs/api.md §4d: hostile bodies with valid signatures never make a 500 nor a partial write. */
describe('the channel webhook under hostile signed bodies', () => {
  let t: TestApp;
  let graph: FakeGraphApi;
  let agentId: string;
  let webhookPath: string;

  beforeAll(async () => {
    graph = await FakeGraphApi.start();
    recordSecret('integration secret', graph.options.accessToken);
    recordSecret('integration secret', APP_SECRET);
    t = await startTestApp({
      PUBLIC_URL: 'https://console.example.com',
      META_GRAPH_BASE_URL: graph.url,
    });
    agentId = (await createAgent(t, { name: 'Ada' })).id;
    const channel = await connectWhatsApp(t, agentId, graph, APP_SECRET);
    webhookPath = `/api/v1/channels/${channel.id}/webhook`;
  });
  afterAll(async () => {
    await repliesSettled(t);
    await t.close();
    await graph.close();
  });

  const post = (raw: string) =>
    t
      .http()
      .post(webhookPath)
      .set('Content-Type', 'application/json')
      .set('X-Hub-Signature-256', signMeta(raw, APP_SECRET))
      .send(raw);

  it('answers every signed body below 500: any JSON, mangled notifications, bad JSON', async () => {
    const bodies = [
      ...fc.sample(anyJson, 60).map((value) => JSON.stringify(value)),
      ...fc.sample(mangled(graph.options.phoneNumberId), 60).map((value) => JSON.stringify(value)),
      '{"object":',
      '{"entry":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
      JSON.stringify({ entry: Array.from({ length: 20_000 }, () => ({ changes: [] })) }),
      '{"__proto__":{"polluted":true},"entry":[]}',
    ];
    for (const raw of bodies) {
      const res = await post(raw);
      expect({ raw: raw.slice(0, 200), status: res.status < 500 }).toEqual({
        raw: raw.slice(0, 200),
        status: true,
      });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 60_000);

  it('leaves only whole conversations: each starts with a customer message, every message has its text', async () => {
    await repliesSettled(t);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await repliesSettled(t);
    const conversations = (
      await t
        .api()
        .get(`${conversationsPath(agentId)}?limit=100`)
        .expect(200)
    ).body.data as Array<{ id: string }>;
    for (const conversation of conversations) {
      const messages = (
        await t
          .api()
          .get(`${conversationsPath(agentId)}/${conversation.id}/messages?limit=100`)
          .expect(200)
      ).body.data as Array<{ role: string; message: string }>;
      expect(messages.length).toBeGreaterThan(0);
      expect(messages[0].role).toBe('user');
      expect(messages.every((m) => typeof m.message === 'string' && m.message.length > 0)).toBe(
        true,
      );
    }
  });
});
