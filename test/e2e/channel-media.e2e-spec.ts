import { get as httpGet } from 'node:http';
import { createAgent } from '../factories/agents';
import { connectWhatsApp } from '../factories/channels';
import { allMessages, conversationsPath, repliesSettled } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { FakeGraphApi, signMeta, whatsappImageNotification } from '../support/fake-graph-api';
import { recordSecret } from '../support/log-capture';
import { pollUntil } from '../support/wait';

const PUBLIC_URL = 'https://console.example.com';
const APP_SECRET = 'media-app-secret';
const MAX_BYTES = 64;

/** docs/api.md §4d: a customer's media, stored with its kind and streamed back on demand. */
describe('channel media: a WhatsApp image in, its bytes through the console', () => {
  let t: TestApp;
  let graph: FakeGraphApi;
  let agentId: string;
  let webhookPath: string;
  let sender = 100;

  const signed = (body: unknown) =>
    t
      .http()
      .post(webhookPath)
      .set('Content-Type', 'application/json')
      .set('X-Hub-Signature-256', signMeta(JSON.stringify(body), APP_SECRET))
      .send(JSON.stringify(body));
  const conversationOf = async (from: string) => {
    const { value } = await pollUntil(
      async () =>
        (
          await t
            .api()
            .get(`${conversationsPath(agentId)}?search=${from}`)
            .expect(200)
        ).body.data,
      (list: Array<{ id: string }>) => list.length > 0,
      10_000,
      25,
    );
    return value[0];
  };
  const sendImage = async (mediaId: string, caption?: string) => {
    const from = `2348031000${++sender}`;
    await signed(
      whatsappImageNotification({
        phoneNumberId: graph.options.phoneNumberId,
        from,
        name: 'Chidi Okafor',
        mediaId,
        mimeType: 'image/png',
        caption,
        id: `wamid.media-${sender}`,
      }),
    ).expect(200);
    const conversation = await conversationOf(from);
    const { value } = await pollUntil(
      () => allMessages(t, agentId, conversation.id),
      (messages) => messages.length > 0,
      10_000,
      25,
    );
    return { from, conversation, messages: value };
  };
  const pathOf = (url: string) => url.slice(PUBLIC_URL.length);

  beforeAll(async () => {
    graph = await FakeGraphApi.start();
    recordSecret('integration secret', graph.options.accessToken);
    recordSecret('integration secret', APP_SECRET);
    t = await startTestApp({
      PUBLIC_URL,
      META_GRAPH_BASE_URL: graph.url,
      META_MEDIA_MAX_BYTES: String(MAX_BYTES),
    });
    const workflow = await createWorkflow(t, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hi from the shop!', enabled: true }],
    });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    const connected = await connectWhatsApp(t, agentId, graph, APP_SECRET);
    webhookPath = `/api/v1/channels/${connected.id}/webhook`;
  });
  afterAll(async () => {
    await repliesSettled(t);
    await t.close();
    await graph.close();
  });

  it('stores an image with its caption as an image message, and the reply answers the caption', async () => {
    const bytes = Buffer.from('\x89PNG fake image bytes');
    graph.addMedia('media-1', bytes, 'image/png');
    const { from, conversation, messages } = await sendImage('media-1', 'hello');
    const image = messages[0] as unknown as Record<string, unknown>;
    expect(image).toMatchObject({
      role: 'user',
      message: 'hello',
      message_type: 'image',
      private: false,
      attachments: [
        {
          type: 'image',
          url: `${PUBLIC_URL}${API}/agents/${agentId}/conversations/${conversation.id}/messages/${String(image.id)}/attachments/0`,
          provider_id: 'media-1',
          mime_type: 'image/png',
          caption: 'hello',
        },
      ],
    });
    await repliesSettled(t);
    const { value } = await pollUntil(
      async () =>
        graph.requestsOf('messages').filter((r) => (r.body as { to: string }).to === from),
      (requests) => requests.length > 0,
      10_000,
      25,
    );
    expect(value[0].body).toMatchObject({ to: from, text: { body: 'Hi from the shop!' } });
    const after = await allMessages(t, agentId, conversation.id);
    expect(after.map((m) => m.message)).toEqual(['hello', 'Hi from the shop!']);
  });

  it("streams the attachment's bytes with their content type to a conversations:read key only", async () => {
    const bytes = Buffer.from('small png bytes');
    graph.addMedia('media-2', bytes, 'image/png');
    const { messages } = await sendImage('media-2');
    const image = messages[0] as unknown as {
      message: string;
      attachments: Array<{ url: string }>;
    };
    expect(image.message).toBe('(image)');
    const path = pathOf(image.attachments[0].url);

    const reader = await t.createKey('default', ['conversations:read']);
    const res = await t
      .api(reader.key)
      .get(path)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    const mediaRequests = graph.requestsOf('media-bytes');
    expect(mediaRequests.length).toBeGreaterThan(0);

    const writer = await t.createKey('default', ['conversations:write']);
    await t.api(writer.key).get(path).expect(403);
    const stranger = await t.createKey('stranger-media', ['*']);
    await t.api(stranger.key).get(path).expect(404);
    await t.api().get(path.replace(/\/0$/, '/1')).expect(404);
    await t.api().get(path.replace(/\/0$/, '/x')).expect(404);
  });

  it("streams a Messenger image from the attachment's URL", async () => {
    const messenger = await createAgent(t, { name: 'Messenger agent' });
    await t
      .api()
      .post(`${API}/agents/${messenger.id}/channels/messenger/connect`)
      .send({
        page_id: graph.options.pageId,
        page_access_token: graph.options.accessToken,
        app_secret: APP_SECRET,
      })
      .expect(200)
      .then((res) => recordSecret('integration secret', res.body.data.verify_token));
    const channel = (await t.api().get(`${API}/agents/${messenger.id}/channels`).expect(200)).body
      .data as Array<{ id: string; type: string }>;
    const path = `/api/v1/channels/${channel.find((c) => c.type === 'messenger')!.id}/webhook`;
    const bytes = Buffer.from('GIF89a fake gif');
    graph.addMedia('media-m', bytes, 'image/gif');
    const senderId = `psid-${++sender}`;
    const now = Date.now();
    const body = {
      object: 'page',
      entry: [
        {
          id: graph.options.pageId,
          time: now,
          messaging: [
            {
              sender: { id: senderId },
              recipient: { id: graph.options.pageId },
              timestamp: now,
              message: {
                mid: `m_media-${sender}`,
                attachments: [
                  { type: 'image', payload: { url: `${graph.origin}/media-bytes/media-m` } },
                ],
              },
            },
          ],
        },
      ],
    };
    await t
      .http()
      .post(path)
      .set('Content-Type', 'application/json')
      .set('X-Hub-Signature-256', signMeta(JSON.stringify(body), APP_SECRET))
      .send(JSON.stringify(body))
      .expect(200);
    const { value } = await pollUntil(
      async () =>
        (
          await t
            .api()
            .get(`${conversationsPath(messenger.id)}?search=${senderId}`)
            .expect(200)
        ).body.data as Array<{ id: string }>,
      (list) => list.length > 0,
      10_000,
      25,
    );
    const [image] = (await allMessages(t, messenger.id, value[0].id)) as unknown as Array<{
      message_type: string;
      attachments: Array<{ url: string; provider_id: string }>;
    }>;
    expect(image.message_type).toBe('image');
    expect(image.attachments[0].provider_id).toBe(`${graph.origin}/media-bytes/media-m`);
    const res = await t
      .api()
      .get(pathOf(image.attachments[0].url))
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('image/gif');
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
  });

  it('refuses media over META_MEDIA_MAX_BYTES (502), relaying nothing', async () => {
    graph.addMedia('media-big', Buffer.alloc(MAX_BYTES + 1, 7), 'image/png');
    const { messages } = await sendImage('media-big', 'hello');
    const bytesBefore = graph.requestsOf('media-bytes').length;
    const image = messages[0] as unknown as { attachments: Array<{ url: string }> };
    const res = await t.api().get(pathOf(image.attachments[0].url)).expect(502);
    expect(res.body).toMatchObject({
      code: 'internal_error',
      message: `The media is larger than the ${MAX_BYTES}-byte limit`,
    });
    expect(graph.requestsOf('media-bytes')).toHaveLength(bytesBefore);
  });

  it('refuses media of unknown size whose first bytes already pass META_MEDIA_MAX_BYTES (502)', async () => {
    graph.addMedia('media-unsized', Buffer.alloc(MAX_BYTES * 4, 7), 'image/png', MAX_BYTES * 2);
    const { messages } = await sendImage('media-unsized', 'hello');
    const image = messages[0] as unknown as { attachments: Array<{ url: string }> };
    const res = await t.api().get(pathOf(image.attachments[0].url)).expect(502);
    expect(res.body).toMatchObject({
      code: 'internal_error',
      message: `The media is larger than the ${MAX_BYTES}-byte limit`,
    });
  });

  it('cuts the response off when media of unknown size passes META_MEDIA_MAX_BYTES mid-stream', async () => {
    graph.addMedia('media-endless', Buffer.alloc(MAX_BYTES * 4, 7), 'image/png', MAX_BYTES / 2);
    const { messages } = await sendImage('media-endless', 'hello');
    const image = messages[0] as unknown as { attachments: Array<{ url: string }> };
    // The first bytes are out, and the headers with them: past the cap the response can only end
    // unfinished, which an HTTP client sees as an error, never as a complete (truncated) file.
    const received = await new Promise<{ status: number; bytes: number; complete: boolean }>(
      (resolve, reject) => {
        const req = httpGet(
          `${t.url}${pathOf(image.attachments[0].url)}`,
          { headers: { 'X-Api-Key': t.key } },
          (res) => {
            let bytes = 0;
            res.on('data', (chunk: Buffer) => (bytes += chunk.length));
            res.on('error', () => undefined);
            res.on('close', () =>
              resolve({ status: res.statusCode ?? 0, bytes, complete: res.complete }),
            );
          },
        );
        req.on('error', reject);
      },
    );
    expect(received).toEqual({ status: 200, bytes: MAX_BYTES, complete: false });
  });
});
