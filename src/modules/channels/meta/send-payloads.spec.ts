import {
  classifySendFailure,
  messengerTextRequest,
  parseSendSuccess,
  whatsappTextRequest,
} from './send-payloads';

const BASE = 'https://graph.facebook.com/v21.0';

describe('whatsappTextRequest', () => {
  it('builds POST {base}/{phone_number_id}/messages with a text body', () => {
    expect(whatsappTextRequest(`${BASE}/`, '106540352242922', '16505551234', 'Hi there')).toEqual({
      url: `${BASE}/106540352242922/messages`,
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '16505551234',
        type: 'text',
        text: { preview_url: false, body: 'Hi there' },
      },
      truncated: false,
    });
  });

  it('cuts a body over 4,096 characters to 4,096 ending with an ellipsis', () => {
    const request = whatsappTextRequest(BASE, '1', '2', 'a'.repeat(5000))!;
    const body = (request.body.text as { body: string }).body;
    expect(body).toHaveLength(4096);
    expect(body.endsWith('a…')).toBe(true);
    expect(request.truncated).toBe(true);
    expect(whatsappTextRequest(BASE, '1', '2', 'a'.repeat(4096))!.truncated).toBe(false);
  });

  it('keeps a path-breaking phone number id inside its segment, and refuses a blank text', () => {
    expect(whatsappTextRequest(BASE, '../me', '2', 'x')!.url).toBe(`${BASE}/..%2Fme/messages`);
    expect(whatsappTextRequest(BASE, '1', '2', '  \n ')).toBeNull();
  });
});

describe('messengerTextRequest', () => {
  it('builds POST {base}/me/messages as a RESPONSE', () => {
    expect(messengerTextRequest(BASE, '9988776655', 'Hello')).toEqual({
      url: `${BASE}/me/messages`,
      body: {
        recipient: { id: '9988776655' },
        messaging_type: 'RESPONSE',
        message: { text: 'Hello' },
      },
      truncated: false,
    });
  });

  it('cuts at 2,000 characters without splitting an emoji', () => {
    const request = messengerTextRequest(BASE, 'u', `${'x'.repeat(1998)}😀😀`)!;
    const text = (request.body.message as { text: string }).text;
    expect(text).toBe(`${'x'.repeat(1998)}…`);
    expect(request.truncated).toBe(true);
  });
});

describe('parseSendSuccess', () => {
  it("reads WhatsApp's messages[0].id and Messenger's message_id", () => {
    expect(
      parseSendSuccess({
        messaging_product: 'whatsapp',
        contacts: [{ input: '16505551234', wa_id: '16505551234' }],
        messages: [{ id: 'wamid.HBgLMTY1MDUwNzY1MjAVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA' }],
      }),
    ).toBe('wamid.HBgLMTY1MDUwNzY1MjAVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA');
    expect(
      parseSendSuccess({
        recipient_id: '1254477777772919',
        message_id:
          'm_AG5Hz2Uq7tuwNEhXfYYKj8mJEM_QPpz5jdCK48PnKAjSdjfipqxqMvK8ma6AC8fplwlqLP_5cgXIbu7I3rBN0P',
      }),
    ).toMatch(/^m_/);
  });

  it('answers null for anything else', () => {
    for (const body of [
      null,
      'ok',
      [],
      {},
      { messages: [] },
      { messages: [{ id: 7.5 }] },
      { message_id: '' },
    ]) {
      expect(parseSendSuccess(body)).toBeNull();
    }
  });
});

const graphError = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf', ...extra },
});

describe('classifySendFailure', () => {
  it.each([
    ['a network error or timeout', null, null, true, null],
    ['HTTP 429', 429, {}, true, null],
    ['HTTP 500', 500, graphError(2, 'Service temporarily unavailable'), true, 2],
    ['HTTP 503 without a body', 503, null, true, null],
    ['HTTP 408', 408, null, true, null],
    [
      'code 4 (application rate limit)',
      400,
      graphError(4, 'Application request limit reached'),
      true,
      4,
    ],
    ['code 80007 (WhatsApp rate limit)', 400, graphError(80007, 'Rate limit issues'), true, 80007],
    ['code 130429 (throughput)', 400, graphError(130429, 'Rate limit hit'), true, 130429],
    ['code 131056 (pair rate limit)', 400, graphError(131056, 'Pair rate limit hit'), true, 131056],
    [
      'code 613 (Messenger calls limit)',
      400,
      graphError(613, 'Calls to this api have exceeded the rate limit.'),
      true,
      613,
    ],
    [
      'code 131047 (24-hour window)',
      400,
      graphError(131047, 'Re-engagement message'),
      false,
      131047,
    ],
    ['code 100 (invalid parameter)', 400, graphError(100, 'Invalid parameter'), false, 100],
    [
      'code 190 (token expired)',
      401,
      graphError(190, 'Error validating access token: Session has expired'),
      false,
      190,
    ],
    ['HTTP 404', 404, null, false, null],
    ['HTTP 400 with a string code', 400, { error: { code: '4', message: 'x' } }, false, null],
  ])('%s → retryable %s', (_label, status, body, retryable, code) => {
    const failure = classifySendFailure(status, body);
    expect(failure.retryable).toBe(retryable);
    expect(failure.code).toBe(code);
    expect(failure.message.length).toBeGreaterThan(0);
    expect(failure.message.length).toBeLessThanOrEqual(500);
  });

  it('says plainly that the 24-hour window is closed, with the details Meta gave', () => {
    const { message } = classifySendFailure(
      400,
      graphError(131047, 'Re-engagement message', {
        error_data: {
          messaging_product: 'whatsapp',
          details:
            'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
        },
      }),
    );
    expect(message).toMatch(/^outside WhatsApp's 24-hour customer service window/);
    expect(message).toContain(
      'Re-engagement message: Message failed to send because more than 24 hours',
    );
    expect(message).toContain('(code 131047)');
  });

  it("says the Messenger window is closed for error 10's window subcode, and what to do about an expired token", () => {
    expect(
      classifySendFailure(
        400,
        graphError(10, 'This message is sent outside of allowed window.', {
          error_subcode: 2018278,
        }),
      ).message,
    ).toMatch(/^outside the 24-hour messaging window/);
    expect(classifySendFailure(401, graphError(190, 'Session has expired')).message).toMatch(
      /connect the channel again: Session has expired \(code 190\)$/,
    );
  });

  it('joins error_user_msg and names a network failure or a bare status', () => {
    expect(
      classifySendFailure(
        400,
        graphError(100, 'Invalid parameter', {
          error_user_title: 'T',
          error_user_msg: 'The recipient is not a valid WhatsApp user',
        }),
      ).message,
    ).toBe('Invalid parameter: The recipient is not a valid WhatsApp user (code 100)');
    expect(classifySendFailure(null, null).message).toBe(
      'no answer from Meta (network error or timeout)',
    );
    expect(classifySendFailure(502, '<html>Bad gateway</html>').message).toBe('HTTP 502');
  });

  it('never carries an access token, and stays within 500 characters', () => {
    const token = 'EAAGm0PX4ZCpsBAKZC8ZAJZAs0aoZBQZD1234567890';
    const failure = classifySendFailure(
      400,
      graphError(
        190,
        `Malformed access token ${token} in https://graph.facebook.com/me?access_token=secret-value&x=1 ${'y'.repeat(2000)}`,
      ),
      ['my-page-token-1'],
    );
    expect(failure.message).not.toContain(token);
    expect(failure.message).not.toContain('secret-value');
    expect(failure.message.length).toBeLessThanOrEqual(500);
    const custom = classifySendFailure(400, graphError(100, 'bad token my-page-token-1 given'), [
      'my-page-token-1',
    ]);
    expect(custom.message).toBe('bad token [redacted] given (code 100)');
  });
});
