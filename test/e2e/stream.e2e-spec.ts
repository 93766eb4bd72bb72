import { createHash } from 'node:crypto';
import {
  MESSAGE_BUS,
  MessageBus,
  STREAM_SLOTS,
  StreamSlots,
  TICKET_STORE,
  TicketStore,
} from '@/common/state/ports';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { OpenStreams } from '@/modules/conversations/stream/open-streams';
import { createAgent } from '../factories/agents';
import {
  allMessages,
  conversationsPath,
  issueTicket,
  repliesSettled,
  sendAs,
  sendTo,
} from '../factories/conversations';
import { startTestApp, TestApp } from '../factories/test-app';
import { openStream, SseConnection, SseFrame } from '../support/sse-client';
import { pollUntil, sleep } from '../support/wait';

const HEARTBEAT_MS = 300;

describe('the message stream', () => {
  let t: TestApp;
  let agentId: string;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({
      STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS),
      STREAM_MAX_PER_SUBJECT: '3',
      RATE_LIMIT_MAX: '100000',
    });
    // Its replies are hand-offs (no knowledge): they leave the AI running for the live tests.
    agentId = (await createAgent(t, { handoff_pauses_ai: false })).id;
    base = conversationsPath(agentId);
  });
  afterAll(() => t.close());

  /** A conversation where only operators speak, so that no reply interleaves. */
  async function quietConversation(user: string): Promise<string> {
    return (await sendAs(t, agentId, user, 'opening', { role: 'assistant' })).conversation_id;
  }

  const streamUrl = (conversationId: string, query: string, path = 'messages/stream') =>
    `${t.url}${base}/${conversationId}/${path}${query ? `?${query}` : ''}`;

  async function open(
    conversationId: string,
    query = '',
    headers: Record<string, string | string[]> = {},
    key = t.key,
  ) {
    const ticket = await issueTicket(t, agentId, conversationId, key);
    return openStream(
      streamUrl(conversationId, `ticket=${ticket}${query ? `&${query}` : ''}`),
      headers,
    );
  }

  const messageIds = (frames: SseFrame[]) =>
    frames.filter((f) => f.event === 'message').map((f) => f.id);

  describe('tickets', () => {
    it('issues a single-use ticket with its lifetime', async () => {
      const conversation = await quietConversation('ticket-user');
      const res = await t.api().post(`${base}/${conversation}/stream-ticket`).expect(201);
      expect(res.body).toEqual({
        message: 'Stream ticket issued successfully',
        data: { ticket: expect.stringMatching(/^st_[A-Za-z0-9_-]{40,}$/), expires_in: 60 },
      });
      await t.api().post(`${base}/00000000-0000-7000-8000-000000000000/stream-ticket`).expect(404);
    });

    it('stores tickets only by hash', async () => {
      const conversation = await quietConversation('hash-user');
      const save = jest.spyOn(t.app.get<TicketStore>(TICKET_STORE), 'save');
      try {
        const ticket = await issueTicket(t, agentId, conversation);
        expect(save).toHaveBeenCalledTimes(1);
        const [stored, grant] = save.mock.calls[0];
        expect(stored).toBe(createHash('sha256').update(ticket).digest('hex'));
        expect(JSON.stringify(grant)).not.toContain(ticket);
      } finally {
        save.mockRestore();
      }
    });

    it('opens exactly one of 30 parallel streams with one ticket', async () => {
      const conversation = await quietConversation('parallel-user');
      const ticket = await issueTicket(t, agentId, conversation);
      const connections = await Promise.all(
        Array.from({ length: 30 }, () => openStream(streamUrl(conversation, `ticket=${ticket}`))),
      );
      const statuses = connections.map((c) => c.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 404)).toHaveLength(29);
      connections.forEach((c) => c.close());
    });
  });

  describe('refusals, as JSON before any SSE header', () => {
    it('401 without a ticket', async () => {
      const conversation = await quietConversation('no-ticket');
      const res = await openStream(streamUrl(conversation, ''));
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({
        code: 'unauthorized',
        statusCode: 401,
        request_id: res.headers['x-request-id'],
      });
    });

    it('404 for an unknown, used, expired or mismatched ticket, or an unknown target', async () => {
      const conversation = await quietConversation('bad-ticket');
      const other = await quietConversation('bad-ticket-other');
      const unknown = await openStream(streamUrl(conversation, 'ticket=st_nope'));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'not_found' });

      const ticket = await issueTicket(t, agentId, conversation);
      const first = await openStream(streamUrl(conversation, `ticket=${ticket}`));
      expect(first.status).toBe(200);
      first.close();
      expect((await openStream(streamUrl(conversation, `ticket=${ticket}`))).status).toBe(404);

      const forOther = await issueTicket(t, agentId, other);
      expect((await openStream(streamUrl(conversation, `ticket=${forOther}`))).status).toBe(404);
      const otherAgent = (await createAgent(t)).id;
      const wrongAgent = await issueTicket(t, agentId, conversation);
      expect(
        (
          await openStream(
            `${t.url}${conversationsPath(otherAgent)}/${conversation}/messages/stream?ticket=${wrongAgent}`,
          )
        ).status,
      ).toBe(404);
      expect(
        (await openStream(streamUrl('00000000-0000-7000-8000-000000000000', `ticket=${ticket}`)))
          .status,
      ).toBe(404);
      expect((await openStream(streamUrl('not-an-id', `ticket=${ticket}`))).status).toBe(404);
    });

    it('404 for a ticket whose key was revoked', async () => {
      const conversation = await quietConversation('revoked-key');
      const key = await t.createKey('default', ['conversations:read']);
      const ticket = await issueTicket(t, agentId, conversation, key.key);
      await t.app.get(ApiKeysService).revoke(key.keyId);
      expect((await openStream(streamUrl(conversation, `ticket=${ticket}`))).status).toBe(404);
    });

    it('400 for an `after` that is neither a message of this conversation nor an ISO-8601 time', async () => {
      const conversation = await quietConversation('bad-after');
      const elsewhere = await sendAs(t, agentId, 'bad-after-elsewhere', 'x', { role: 'assistant' });
      for (const after of ['yesterday', '12345', elsewhere.id, '2026-13-45T99:00:00Z']) {
        const res = await open(conversation, `after=${encodeURIComponent(after)}`);
        expect({ after, status: res.status, code: res.body?.code }).toEqual({
          after,
          status: 400,
          code: 'validation_error',
        });
      }
      const badHeader = await open(conversation, '', { 'Last-Event-ID': 'garbage' });
      expect(badHeader.status).toBe(400);
    });

    it('400 for an `after` or Last-Event-ID given twice or empty, rather than a stream from now', async () => {
      const conversation = await quietConversation('twice-after');
      const [first, second] = [
        await sendTo(t, agentId, conversation, 'one', 'assistant'),
        await sendTo(t, agentId, conversation, 'two', 'assistant'),
      ];
      const attempts: Array<[string, string, Record<string, string | string[]>]> = [
        ['after twice', `after=${first.id}&after=${second.id}`, {}],
        ['after empty', 'after=', {}],
        ['Last-Event-ID empty, bad after', 'after=garbage', { 'Last-Event-ID': '' }],
        ['Last-Event-ID empty', '', { 'Last-Event-ID': '' }],
        ['Last-Event-ID twice', '', { 'Last-Event-ID': [first.id, second.id] }],
      ];
      for (const [label, query, headers] of attempts) {
        const res = await open(conversation, query, headers);
        res.close();
        expect({
          label,
          status: res.status,
          type: res.headers['content-type'],
          buffering: res.headers['x-accel-buffering'],
          body: res.body,
        }).toEqual({
          label,
          status: 400,
          type: expect.stringMatching(/^application\/json/),
          buffering: undefined,
          body: {
            statusCode: 400,
            error: 'Bad Request',
            code: 'validation_error',
            request_id: res.headers['x-request-id'],
            message: [expect.stringMatching(/^(after|Last-Event-ID): /)],
          },
        });
      }
    });

    it('429 past the per-key limit, with Retry-After and no request_id; slots free on disconnect', async () => {
      const conversation = await quietConversation('limit-user');
      const key = await t.createKey('default', ['conversations:read']);
      const held: SseConnection[] = [];
      for (let i = 0; i < 3; i++) {
        const stream = await open(conversation, '', {}, key.key);
        expect(stream.status).toBe(200);
        held.push(stream);
      }
      const refused = await open(conversation, '', {}, key.key);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.body).toEqual({
        message: expect.any(String),
        error: 'Too Many Requests',
        code: 'too_many_requests',
        statusCode: 429,
      });
      const otherKey = await open(conversation);
      expect(otherKey.status).toBe(200);
      otherKey.close();
      held[0].close();
      await pollUntil(
        () => t.app.get<StreamSlots>(STREAM_SLOTS).held(key.keyId),
        (n) => n === 2,
        2000,
        20,
      );
      const again = await open(conversation, '', {}, key.key);
      expect(again.status).toBe(200);
      [again, ...held].forEach((c) => c.close());
    });
  });

  describe('frames', () => {
    it('sends the stream headers, rate-limit headers and request id', async () => {
      const conversation = await quietConversation('headers-user');
      const stream = await open(conversation, '', { 'X-Request-Id': 'stream-req-1' });
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['cache-control']).toBe('no-cache');
      expect(stream.headers['connection']).toBe('keep-alive');
      expect(stream.headers['x-accel-buffering']).toBe('no');
      expect(stream.headers['x-request-id']).toBe('stream-req-1');
      expect(Number(stream.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
      expect(stream.headers['x-ratelimit-remaining']).toBeDefined();
      expect(stream.headers['x-ratelimit-reset']).toBeDefined();
      stream.close();
    });

    it('frames a message as id, event and JSON data, and a heartbeat with the position', async () => {
      const conversation = await quietConversation('frame-user');
      const stream = await open(conversation);
      const sent = await sendTo(t, agentId, conversation, 'Line one\nline two', 'assistant');
      await stream.waitFor((frames) => messageIds(frames).includes(sent.id));
      const frame = stream.frames.find((f) => f.event === 'message')!;
      expect(frame.raw).toBe(
        `event: message\nid: ${sent.id}\ndata: ${JSON.stringify(JSON.parse(frame.data))}`,
      );
      expect(JSON.parse(frame.data)).toEqual({
        id: sent.id,
        conversation_id: conversation,
        role: 'assistant',
        message: 'Line one\nline two',
        message_type: 'text',
        created_at: sent.created_at,
        action: null,
        author: { type: 'operator', id: null, name: null },
        private: false,
      });
      await stream.waitFor((frames) => frames.filter((f) => f.event === 'heartbeat').length >= 3);
      const heartbeats = stream.frames.filter((f) => f.event === 'heartbeat');
      expect(heartbeats.at(-1)!.id).toBe(sent.id);
      expect(JSON.parse(heartbeats.at(-1)!.data)).toEqual({ ts: expect.any(Number) });
      expect(stream.frames.every((f) => f.id !== undefined)).toBe(true);
      stream.close();
    });

    it('heartbeats at open carry the newest message id, or the open time when there is none', async () => {
      const conversation = await quietConversation('position-user');
      const newest = (await allMessages(t, agentId, conversation)).at(-1)!;
      const stream = await open(conversation);
      await stream.waitFor((frames) => frames.length >= 1);
      expect(stream.frames[0]).toMatchObject({ event: 'heartbeat', id: newest.id });
      stream.close();

      const empty = await sendAs(t, agentId, 'position-empty', 'x', { role: 'assistant' });
      const timestamp = new Date(Date.parse(empty.created_at) + 60_000).toISOString();
      const resumed = await open(empty.conversation_id, `after=${timestamp}`);
      await resumed.waitFor((frames) => frames.length >= 1);
      expect(resumed.frames[0]).toMatchObject({ event: 'heartbeat', id: timestamp });
      resumed.close();
    });

    it('serves the same stream under /stream', async () => {
      const conversation = await quietConversation('alias-user');
      const ticket = await issueTicket(t, agentId, conversation);
      const stream = await openStream(streamUrl(conversation, `ticket=${ticket}`, 'stream'));
      expect(stream.status).toBe(200);
      const sent = await sendTo(t, agentId, conversation, 'via alias', 'assistant');
      await stream.waitFor((frames) => messageIds(frames).includes(sent.id));
      stream.close();
    });
  });

  describe('replay and live', () => {
    it('replays after a message id, and Last-Event-ID wins over after', async () => {
      const conversation = await quietConversation('replay-user');
      const sent = [];
      for (let i = 0; i < 5; i++) {
        sent.push(await sendTo(t, agentId, conversation, `m${i}`, 'assistant'));
      }
      const byAfter = await open(conversation, `after=${sent[1].id}`);
      await byAfter.waitFor((frames) => messageIds(frames).length >= 3);
      expect(messageIds(byAfter.frames)).toEqual(sent.slice(2).map((m) => m.id));
      byAfter.close();

      const byHeader = await open(conversation, `after=${sent[0].id}`, {
        'Last-Event-ID': sent[3].id,
      });
      await byHeader.waitFor((frames) => messageIds(frames).length >= 1);
      await sleep(100);
      expect(messageIds(byHeader.frames)).toEqual([sent[4].id]);
      byHeader.close();
    });

    it('replays after an ISO-8601 time', async () => {
      const conversation = await quietConversation('time-user');
      const early = await sendTo(t, agentId, conversation, 'early', 'assistant');
      await sleep(20);
      const later = await sendTo(t, agentId, conversation, 'later', 'assistant');
      const stream = await open(conversation, `after=${encodeURIComponent(early.created_at)}`);
      await stream.waitFor((frames) => messageIds(frames).length >= 1);
      await sleep(100);
      expect(messageIds(stream.frames)).toEqual([later.id]);
      stream.close();
    });

    it('loses and repeats nothing when messages arrive while the replay is read', async () => {
      const conversation = await quietConversation('gapless-user');
      for (let i = 0; i < 1200; i += 100) {
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            sendTo(t, agentId, conversation, `old ${i + j}`, 'assistant'),
          ),
        );
      }
      const first = (await allMessages(t, agentId, conversation))[0];
      const writer = (async () => {
        for (let i = 0; i < 60; i++) {
          await sendTo(t, agentId, conversation, `during ${i}`, 'assistant');
        }
      })();
      const stream = await open(conversation, `after=${first.id}`);
      await writer;
      const stored = await allMessages(t, agentId, conversation);
      const expected = stored.slice(1).map((m) => m.id);
      await stream.waitFor((frames) => messageIds(frames).length >= expected.length, 20_000);
      await sleep(200);
      expect(messageIds(stream.frames)).toEqual(expected);
      stream.close();
    });

    it('delivers user messages and their replies live, in order', async () => {
      const conversation = (await sendAs(t, agentId, 'live-user', 'first')).conversation_id;
      await repliesSettled(t);
      const stream = await open(conversation);
      const question = await sendTo(t, agentId, conversation, 'anything new?');
      await stream.waitFor((frames) => messageIds(frames).length >= 2);
      const messages = stream.messages();
      expect(messages.map((m) => [m.id === question.id, m.role])).toEqual([
        [true, 'user'],
        [false, 'assistant'],
      ]);
      stream.close();
    });
  });

  describe('disconnects', () => {
    it('releases the slot and the subscription of every dropped stream', async () => {
      const conversation = await quietConversation('drop-user');
      const slots = t.app.get<StreamSlots>(STREAM_SLOTS);
      const bus = t.app.get<MessageBus>(MESSAGE_BUS);
      for (let i = 0; i < 20; i++) {
        const stream = await open(conversation);
        expect(stream.status).toBe(200);
        await stream.waitFor((frames) => frames.length >= 1);
        stream.close();
      }
      const { value } = await pollUntil(
        async () => ({ subjects: await slots.held(), watched: bus.watchedConversations() }),
        (state) => state.subjects === 0 && state.watched === 0,
        3000,
        20,
      );
      expect(value).toEqual({ subjects: 0, watched: 0 });
    });
  });
});

describe('ticket lifetime', () => {
  it('refuses a ticket after STREAM_TICKET_TTL_S', async () => {
    const t = await startTestApp({ STREAM_TICKET_TTL_S: '1' });
    try {
      const agentId = (await createAgent(t)).id;
      const conversation = (await sendAs(t, agentId, 'ttl', 'x', { role: 'assistant' }))
        .conversation_id;
      const ticket = await issueTicket(t, agentId, conversation);
      await sleep(1100);
      const res = await openStream(
        `${t.url}${conversationsPath(agentId)}/${conversation}/messages/stream?ticket=${ticket}`,
      );
      expect(res.status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('shutdown', () => {
  it('ends at once a stream opened after shutdown began, so that the server can close', async () => {
    const t = await startTestApp();
    let stream: SseConnection | undefined;
    try {
      const agentId = (await createAgent(t)).id;
      const conversation = (await sendAs(t, agentId, 'late', 'x', { role: 'assistant' }))
        .conversation_id;
      const ticket = await issueTicket(t, agentId, conversation);
      t.app.get(OpenStreams).onModuleDestroy();
      stream = await openStream(
        `${t.url}${conversationsPath(agentId)}/${conversation}/messages/stream?ticket=${ticket}`,
      );
      expect(stream.status).toBe(200);
      await Promise.race([stream.closed, sleep(3000)]);
      expect(stream.endedCleanly()).toBe(true);
    } finally {
      stream?.close();
      await t.close();
    }
  });
});
