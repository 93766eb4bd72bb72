import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  issueTicket,
  repliesSettled,
  sendAs,
  sendTo,
} from '../factories/conversations';
import { createKnowledgeBase } from '../factories/knowledge-bases';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { openStream, SseConnection, SseFrame } from '../support/sse-client';

const ORIGIN = 'https://shop.example';
const ANSWER = 'Our shoes come in sizes 36 to 46, in black and in brown.';
const PASSAGE = 'Opening hours: 9am to 5pm, Monday to Saturday.';

/** The pieces of the reply to `replyTo`, where the reply came and where the last piece did. */
function replyFrames(frames: SseFrame[], replyTo: string) {
  const deltas = frames
    .filter((f) => f.event === 'message.delta')
    .map((f) => ({ id: f.id, ...JSON.parse(f.data) }))
    .filter((d) => d.reply_to === replyTo);
  const finalAt = frames.findIndex(
    (f) => f.event === 'message' && JSON.parse(f.data).role === 'assistant',
  );
  const lastDeltaAt = frames.findLastIndex((f) => f.event === 'message.delta');
  return { deltas, finalAt, lastDeltaAt };
}

const assistantArrived = (frames: SseFrame[]) =>
  frames.some((f) => f.event === 'message' && JSON.parse(f.data).role === 'assistant');

/** docs/api.md §5b: the model streams; the staff and widget streams show the pieces. */
describe('replies streamed as the model writes them', () => {
  let t: TestApp;
  let llm: LlmStub;
  let agentId: string;
  let pk: string;
  let user = 0;

  beforeAll(async () => {
    llm = await startLlmStub();
    llm.answer = ANSWER;
    llm.pieceDelayMs = 25;
    t = await startTestApp({
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'llm-key',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '5000',
      WIDGET_RATE_LIMIT_MAX: '1000',
    });
    const workflow = await createWorkflow(t, { name: 'Shoes' });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    await createKnowledgeBase(t, agentId, { type: 'text', name: 'Hours', content: PASSAGE });
    pk = (
      await t
        .api()
        .post(`${API}/agents/${agentId}/channels/webchat/connect`)
        .send({ allowed_origins: [ORIGIN] })
        .expect(200)
    ).body.data.publishable_key;
  });
  afterEach(() => {
    llm.behaviour = 'answer';
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  /** A conversation with one answered message, and a staff stream open on it. */
  async function watchedConversation(): Promise<{ id: string; stream: SseConnection }> {
    const first = await sendAs(t, agentId, `streaming-${++user}`, 'Hi');
    await repliesSettled(t);
    const id = first.conversation_id;
    const ticket = await issueTicket(t, agentId, id);
    const stream = await openStream(
      `${t.url}${conversationsPath(agentId)}/${id}/stream?ticket=${ticket}`,
    );
    await stream.waitFor((frames) => frames.some((f) => f.event === 'heartbeat'));
    return { id, stream };
  }

  it('sends the pieces in order, each with the resume point as its id, before the reply', async () => {
    const { id, stream } = await watchedConversation();
    try {
      const asked = await sendTo(t, agentId, id, 'Which sizes do you have?');
      await stream.waitFor(assistantArrived);
      const { deltas, finalAt, lastDeltaAt } = replyFrames(stream.frames, asked.id);
      expect(deltas.length).toBeGreaterThan(3);
      expect(deltas.map((d) => d.index)).toEqual(deltas.map((_, i) => i));
      expect(deltas.map((d) => d.delta).join('')).toBe(ANSWER);
      expect(deltas.every((d) => d.id === asked.id && d.conversation_id === id)).toBe(true);
      expect(lastDeltaAt).toBeLessThan(finalAt);
      expect(JSON.parse(stream.frames[finalAt].data).message).toBe(ANSWER);
    } finally {
      stream.close();
    }
  });

  it('shows the pieces on the widget stream too', async () => {
    const widget = (path: string) =>
      t
        .http()
        .post(`/api/v1/widget${path}`)
        .set('Authorization', `Bearer ${pk}`)
        .set('Origin', ORIGIN);
    const token = (await widget('/sessions').send({}).expect(201)).body.data.visitor_token;
    await widget('/messages').send({ visitor_token: token, message: 'Hi' }).expect(201);
    await repliesSettled(t);
    const ticket = (await widget('/stream-ticket').send({ visitor_token: token }).expect(201)).body
      .data.ticket;
    const stream = await openStream(`${t.url}/api/v1/widget/stream?ticket=${ticket}`, {
      Origin: ORIGIN,
    });
    try {
      await stream.waitFor((frames) => frames.some((f) => f.event === 'heartbeat'));
      const asked = (
        await widget('/messages').send({ visitor_token: token, message: 'Sizes?' }).expect(201)
      ).body.data;
      await stream.waitFor(assistantArrived);
      const { deltas, finalAt, lastDeltaAt } = replyFrames(stream.frames, asked.id);
      expect(deltas.map((d) => d.delta).join('')).toBe(ANSWER);
      expect(deltas.every((d) => d.id === asked.id)).toBe(true);
      expect(lastDeltaAt).toBeLessThan(finalAt);
    } finally {
      stream.close();
    }
  });

  it('falls back when the model stops mid-stream: the half reply is never stored', async () => {
    const { id, stream } = await watchedConversation();
    try {
      llm.behaviour = 'cut';
      llm.answer = 'Our opening hours are from nine until';
      await sendTo(t, agentId, id, 'What are your opening hours?');
      await repliesSettled(t);
      await stream.waitFor(assistantArrived);
      const messages = await allMessages(t, agentId, id);
      expect(messages.at(-1)!.message).toBe(PASSAGE);
      expect(messages.map((m) => m.message).join('\n')).not.toContain('from nine until');
      const usage = (
        await t
          .api()
          .get(`${conversationsPath(agentId)}/${id}`)
          .expect(200)
      ).body.data.usage;
      expect(usage.model_calls).toBe(2);
    } finally {
      llm.answer = ANSWER;
      stream.close();
    }
  });
});
