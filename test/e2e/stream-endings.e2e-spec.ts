import { STREAM_SLOTS, StreamSlots } from '@/common/state/ports';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  issueTicket,
  sendAs,
  sendTo,
} from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { openStream, SseConnection, SseFrame } from '../support/sse-client';
import { pollUntil } from '../support/wait';

const MAX_STREAMS = 3;
/** Far longer than any stream should take to end; the tests wait for the ending, not a delay. */
const ENDING_DEADLINE_MS = 10_000;
/** The longest message the API takes. */
const LONG_MESSAGE = 'x'.repeat(10_000);
/** Enough long messages to fill the network's buffers and the server's backlog cap many times. */
const MAX_MESSAGES_TO_STALL = 4_000;

const messageIds = (frames: SseFrame[]) =>
  frames.filter((f) => f.event === 'message').map((f) => f.id);

describe('how a message stream ends', () => {
  let t: TestApp;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp({
      STREAM_MAX_PER_SUBJECT: String(MAX_STREAMS),
      RATE_LIMIT_MAX: '1000000',
    });
    agentId = (await createAgent(t)).id;
  });
  afterAll(() => t.close());

  async function quietConversation(user: string, agent = agentId): Promise<string> {
    return (await sendAs(t, agent, user, 'opening', { role: 'assistant' })).conversation_id;
  }

  async function open(
    conversationId: string,
    key: string,
    agent = agentId,
    headers: Record<string, string> = {},
  ): Promise<SseConnection> {
    const ticket = await issueTicket(t, agent, conversationId, key);
    const stream = await openStream(
      `${t.url}${conversationsPath(agent)}/${conversationId}/messages/stream?ticket=${ticket}`,
      headers,
    );
    expect(stream.status).toBe(200);
    await stream.waitFor((frames) => frames.length >= 1);
    return stream;
  }

  const slotsHeld = (keyId: string) => t.app.get<StreamSlots>(STREAM_SLOTS).held(keyId);
  /** The key's stream slots once freed, or what it still held after 2 s. */
  const slotsOnceFreed = async (keyId: string) =>
    (
      await pollUntil(
        () => slotsHeld(keyId),
        (n) => n === 0,
        2_000,
        20,
      )
    ).value;

  it('ends a stream when its key is revoked, frees its slot, and delivers nothing after', async () => {
    const conversation = await quietConversation('revoked');
    const key = await t.createKey('default', ['conversations:read']);
    const stream = await open(conversation, key.key);
    const before = await sendTo(t, agentId, conversation, 'before the revocation', 'assistant');
    await stream.waitFor((frames) => messageIds(frames).includes(before.id));

    expect(await t.app.get(ApiKeysService).revoke(key.keyId)).toBe(true);
    expect(await stream.closesWithin(ENDING_DEADLINE_MS)).toBe(true);
    const after = await sendTo(t, agentId, conversation, 'after the revocation', 'assistant');

    expect(messageIds(stream.frames)).toEqual([before.id]);
    expect(messageIds(stream.frames)).not.toContain(after.id);
    expect(await slotsOnceFreed(key.keyId)).toBe(0);
  });

  it('ends a stream when its key expires', async () => {
    const conversation = await quietConversation('expiring');
    const key = await t.createKey('default', ['conversations:read'], new Date(Date.now() + 2_000));
    const stream = await open(conversation, key.key);

    expect(await stream.closesWithin(ENDING_DEADLINE_MS)).toBe(true);
    expect(await slotsOnceFreed(key.keyId)).toBe(0);
  });

  it('ends the streams of a deleted agent and gives their slots back', async () => {
    const doomed = (await createAgent(t)).id;
    const key = await t.createKey('default', ['conversations:read']);
    const streams: SseConnection[] = [];
    for (let i = 0; i < MAX_STREAMS; i++) {
      streams.push(await open(await quietConversation(`doomed-${i}`, doomed), key.key, doomed));
    }
    const elsewhere = await quietConversation('survivor');
    const refused = await openStream(
      `${t.url}${conversationsPath(agentId)}/${elsewhere}/messages/stream?ticket=${await issueTicket(t, agentId, elsewhere, key.key)}`,
    );
    expect(refused.status).toBe(429);

    await t.api().delete(`${API}/agents/${doomed}`).expect(200);
    expect(
      await Promise.all(streams.map((stream) => stream.closesWithin(ENDING_DEADLINE_MS))),
    ).toEqual(streams.map(() => true));

    const reopened = await open(elsewhere, key.key);
    reopened.close();
  });

  it('cuts off a stalled client once its backlog passes the cap; resuming with Last-Event-ID loses nothing', async () => {
    const conversation = await quietConversation('stalled');
    const key = await t.createKey('default', ['conversations:read']);
    const stalled = await open(conversation, key.key);
    const resumeFrom = stalled.frames[0].id!;
    stalled.pause();

    let sent = 0;
    while ((await slotsHeld(key.keyId)) > 0 && sent < MAX_MESSAGES_TO_STALL) {
      await sendTo(t, agentId, conversation, LONG_MESSAGE, 'assistant');
      sent++;
    }
    expect(await slotsHeld(key.keyId)).toBe(0);
    expect(sent).toBeLessThan(MAX_MESSAGES_TO_STALL);

    const stored = (await allMessages(t, agentId, conversation)).slice(1).map((m) => m.id);
    const resumed = await open(conversation, key.key, agentId, { 'Last-Event-ID': resumeFrom });
    await resumed.waitFor((frames) => messageIds(frames).length >= stored.length, 30_000);
    expect(messageIds(resumed.frames)).toEqual(stored);
    resumed.close();
    stalled.close();
  });
});
