import { ApiError, describeError, FetchLike, parseRetryAfter, unwrap, WidgetApi } from './api';

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: (name: string) => headers[name] ?? null },
    json: async () => body,
  } as unknown as Response;
}

function recorder(answers: Response[]) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchImpl: FetchLike = async (url, init) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) {
      throw new TypeError('Failed to fetch');
    }
    return next;
  };
  return { calls, api: new WidgetApi('https://api.example/', 'pk_test', fetchImpl) };
}

const MESSAGE = {
  id: 'm1',
  conversation_id: 'c1',
  role: 'user',
  message: 'hi',
  message_type: 'text',
  created_at: '2026-11-26T10:00:00.000Z',
};

describe('WidgetApi', () => {
  it('sends the publishable key and reads the envelope', async () => {
    const { calls, api } = recorder([
      answer(200, { message: 'ok', data: { title: 'Shop', greeting: 'Hello', color: '#112233' } }),
    ]);
    await expect(api.config()).resolves.toEqual({
      title: 'Shop',
      greeting: 'Hello',
      color: '#112233',
    });
    expect(calls[0].url).toBe('https://api.example/api/v1/widget/config');
    expect(calls[0].init.headers).toEqual({ Authorization: 'Bearer pk_test' });
    expect(calls[0].init.credentials).toBe('omit');
  });

  it('starts a session with the stored token', async () => {
    const { calls, api } = recorder([
      answer(201, { data: { visitor_token: 'v1', conversation_id: null } }),
    ]);
    await expect(api.session('v0')).resolves.toEqual({
      visitor_token: 'v1',
      conversation_id: null,
    });
    expect(JSON.parse(calls[0].init.body as string)).toEqual({ visitor_token: 'v0' });
  });

  it('reads every page of the history after a message', async () => {
    const { calls, api } = recorder([
      answer(200, { data: [MESSAGE], meta: { page: 1, page_count: 2 } }),
      answer(200, { data: [{ ...MESSAGE, id: 'm2' }, { junk: true }], meta: { page_count: 2 } }),
    ]);
    const messages = await api.messages('v 1', 'm0');
    expect(messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(calls.map((c) => c.url)).toEqual([
      'https://api.example/api/v1/widget/messages?visitor_token=v+1&after=m0',
      'https://api.example/api/v1/widget/messages?visitor_token=v+1&after=m0&page=2',
    ]);
  });

  it('takes a history that is a bare array', async () => {
    const { api } = recorder([answer(200, [MESSAGE])]);
    await expect(api.messages('v1', null)).resolves.toHaveLength(1);
  });

  it('turns a refusal into an ApiError with Retry-After', async () => {
    const { api } = recorder([
      answer(429, { message: 'Too many', code: 'too_many_requests' }, { 'Retry-After': '7' }),
    ]);
    const error = await api.send('v1', 'hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7000 });
  });

  it('turns a network failure into status 0', async () => {
    const { api } = recorder([]);
    await expect(api.streamTicket('v1')).rejects.toMatchObject({ status: 0 });
  });

  it('builds the stream URL with the ticket and where to resume', () => {
    const { api } = recorder([]);
    expect(api.streamUrl('t/1', 'm5')).toBe(
      'https://api.example/api/v1/widget/stream?ticket=t%2F1&after=m5',
    );
  });
});

describe('errors shown to the visitor', () => {
  it('says what went wrong in a short line', () => {
    expect(describeError(new ApiError(403, 'forbidden'))).toBe(
      'Chat is not available on this site.',
    );
    expect(describeError(new ApiError(429, 'x', 2500))).toBe(
      'Too many messages. Try again in 3 s.',
    );
    expect(describeError(new ApiError(500, 'boom'))).toBe(
      'Chat is unavailable. Try again shortly.',
    );
    expect(describeError(new Error('odd'))).toBe('Something went wrong.');
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('Thu, 26 Nov 2026 10:00:10 GMT', Date.UTC(2026, 10, 26, 10, 0, 0))).toBe(
      10_000,
    );
  });

  it('unwraps envelopes only', () => {
    expect(unwrap({ message: 'ok', data: [1] })).toEqual([1]);
    expect(unwrap([1])).toEqual([1]);
  });
});
