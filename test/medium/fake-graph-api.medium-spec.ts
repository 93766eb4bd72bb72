import {
  metaSignatureValid,
  parseMessengerNotification,
  parseWhatsAppNotification,
} from '@/modules/channels/meta/webhook-payloads';
import {
  classifySendFailure,
  messengerTextRequest,
  parseSendSuccess,
  whatsappTextRequest,
} from '@/modules/channels/meta/send-payloads';
import {
  FakeGraphApi,
  messengerTextNotification,
  signMeta,
  whatsappImageNotification,
  whatsappStatusNotification,
  whatsappTextNotification,
} from '../support/fake-graph-api';

const TOKEN = 'EAAtesttoken42';

describe('The fake Graph API', () => {
  let graph: FakeGraphApi;
  const call = (path: string, init: RequestInit = {}, token = TOKEN) =>
    fetch(`${graph.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });

  beforeAll(async () => {
    graph = await FakeGraphApi.start({ accessToken: TOKEN, phoneNumberId: '1065', pageId: '1122' });
  });
  afterEach(() => graph.reset());
  afterAll(() => graph.close());

  it('answers the credential check of a phone number and a page, and 401/190 to a wrong token', async () => {
    expect(await (await call('/1065')).json()).toMatchObject({
      id: '1065',
      display_phone_number: expect.any(String),
    });
    expect(await (await call('/1122')).json()).toEqual({ id: '1122', name: 'Test Shop' });
    const refused = await call('/1065', {}, 'EAAwrong');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { type: 'OAuthException', code: 190 } });
  });

  it('accepts a WhatsApp send built by whatsappTextRequest and records it', async () => {
    const request = whatsappTextRequest(graph.url, '1065', '16505551234', 'Hello')!;
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
    });
    expect(response.status).toBe(200);
    expect(parseSendSuccess(await response.json())).toMatch(/^wamid\./);
    expect(graph.requestsOf('messages')).toMatchObject([
      {
        method: 'POST',
        path: '/1065/messages',
        body: request.body,
        headers: { authorization: `Bearer ${TOKEN}` },
      },
    ]);
  });

  it('accepts a Messenger send built by messengerTextRequest', async () => {
    const request = messengerTextRequest(graph.url, 'psid-1', 'Hi')!;
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
    });
    expect(parseSendSuccess(await response.json())).toMatch(/^m_/);
    expect(graph.requests[0]).toMatchObject({ path: '/me/messages', route: 'messages' });
  });

  it('answers queued failures in order, then succeeds again', async () => {
    graph.failNext(
      'messages',
      { status: 429 },
      {
        status: 400,
        body: { error: { code: 131047, message: 'Re-engagement message', type: 'OAuthException' } },
      },
    );
    const send = () =>
      call('/me/messages', {
        method: 'POST',
        body: JSON.stringify({ recipient: { id: 'u' }, message: { text: 'x' } }),
      });
    const first = await send();
    expect(classifySendFailure(first.status, await first.json()).retryable).toBe(true);
    const second = await send();
    expect(classifySendFailure(second.status, await second.json())).toMatchObject({
      retryable: false,
      code: 131047,
    });
    expect((await send()).status).toBe(200);
  });

  it('delays or hangs an answer on request', async () => {
    graph.failNext('account', { delayMs: 150 }, { hang: true });
    const started = Date.now();
    expect((await call('/1065')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await expect(call('/1065', { signal: AbortSignal.timeout(200) })).rejects.toThrow();
  });

  it('answers profiles and media, and serves the media bytes with the token', async () => {
    graph.setProfile('psid-9', 'Ada Lovelace');
    graph.addMedia('media-1', Buffer.from('JPEGDATA'), 'image/jpeg');
    expect(await (await call('/psid-9?fields=name')).json()).toEqual({
      name: 'Ada Lovelace',
      id: 'psid-9',
    });
    expect((await call('/psid-unknown?fields=name')).status).toBe(400);
    graph.setProfile('igsid-3', null, 'ada.codes');
    expect(await (await call('/igsid-3?fields=name,username')).json()).toEqual({
      username: 'ada.codes',
      id: 'igsid-3',
    });
    const media = (await (await call('/media-1')).json()) as { url: string; mime_type: string };
    expect(media).toMatchObject({
      mime_type: 'image/jpeg',
      url: `${graph.origin}/media-bytes/media-1`,
    });
    const bytes = await fetch(media.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(Buffer.from(await bytes.arrayBuffer()).toString()).toBe('JPEGDATA');
    expect((await fetch(media.url)).status).toBe(401);
  });
});

describe('The Meta notification builders', () => {
  it('build bodies the parsers read, signed as Meta signs them', () => {
    const text = whatsappTextNotification({
      phoneNumberId: '1065',
      from: '15551',
      name: 'Ann',
      text: 'hi',
      id: 'wamid.A',
    });
    const raw = JSON.stringify(text);
    expect(metaSignatureValid(Buffer.from(raw), signMeta(raw, 's3cret'), 's3cret')).toBe(true);
    expect(parseWhatsAppNotification(JSON.parse(raw)).messages).toMatchObject([
      { providerMessageId: 'wamid.A', from: '15551', profileName: 'Ann', kind: 'text', text: 'hi' },
    ]);
    expect(
      parseWhatsAppNotification(
        whatsappImageNotification({
          phoneNumberId: '1065',
          from: '15551',
          mediaId: 'm1',
          caption: 'look',
        }),
      ).messages[0],
    ).toMatchObject({
      kind: 'image',
      text: 'look',
      media: { providerId: 'm1', mimeType: 'image/jpeg' },
    });
    expect(
      parseWhatsAppNotification(
        whatsappStatusNotification({
          id: 'wamid.O',
          status: 'failed',
          errors: [{ code: 131047, title: 'Re-engagement message' }],
        }),
      ).statuses,
    ).toEqual([
      {
        providerMessageId: 'wamid.O',
        status: 'failed',
        error: 'Re-engagement message (code 131047)',
        recipient: '16505551234',
      },
    ]);
    expect(
      parseMessengerNotification(
        messengerTextNotification({ pageId: '1122', senderId: 'psid-1', text: 'yo', mid: 'm_1' }),
        'messenger',
      ).messages,
    ).toMatchObject([{ providerMessageId: 'm_1', from: 'psid-1', kind: 'text', text: 'yo' }]);
  });
});
