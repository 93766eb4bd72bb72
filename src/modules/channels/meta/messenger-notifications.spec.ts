import { parseMessengerNotification } from './webhook-payloads';

const PAGE = '1122334455';
const PSID = '9988776655';

function page(object: string, ...messaging: unknown[]) {
  return { object, entry: [{ id: PAGE, time: 1458692752478, messaging }] };
}

function event(extra: Record<string, unknown>, sender = PSID) {
  return { sender: { id: sender }, recipient: { id: PAGE }, timestamp: 1458692752478, ...extra };
}

describe('parseMessengerNotification', () => {
  it('reads a Messenger text message', () => {
    const result = parseMessengerNotification(
      page('page', event({ message: { mid: 'm_1', text: 'hello, world!' } })),
      'messenger',
    );
    expect(result).toEqual({
      messages: [
        {
          providerMessageId: 'm_1',
          from: PSID,
          profileName: null,
          timestamp: new Date(1458692752478),
          kind: 'text',
          text: 'hello, world!',
          media: null,
        },
      ],
      statuses: [],
      watermarks: [],
      ignored: 0,
    });
  });

  it('reads an attachment as media with its URL, stickers and files by their kind', () => {
    const url = 'https://scontent.xx.fbcdn.net/v/t1.15752-9/photo.jpg?_nc_cat=1&oh=abc';
    const result = parseMessengerNotification(
      page(
        'page',
        event({ message: { mid: 'm_2', attachments: [{ type: 'image', payload: { url } }] } }),
        event({
          message: {
            mid: 'm_3',
            attachments: [{ type: 'image', payload: { url, sticker_id: 369239263222822 } }],
          },
        }),
        event({ message: { mid: 'm_4', attachments: [{ type: 'file', payload: { url } }] } }),
        event({
          message: {
            mid: 'm_5',
            attachments: [
              {
                type: 'location',
                title: 'Home',
                payload: { coordinates: { lat: 6.5, long: 3.3 } },
              },
            ],
          },
        }),
      ),
      'messenger',
    );
    expect(result.messages.map((m) => [m.kind, m.text, m.media?.url ?? null])).toEqual([
      ['image', null, url],
      ['sticker', null, url],
      ['document', null, url],
      ['location', '6.5,3.3 Home', null],
    ]);
    expect(result.messages[0].media).toEqual({
      providerId: null,
      url,
      mimeType: null,
      caption: null,
    });
  });

  it('reads the first usable of several attachments and counts the others as ignored', () => {
    const result = parseMessengerNotification(
      page(
        'page',
        event({
          message: {
            mid: 'm_6',
            attachments: [
              { type: 'fallback', payload: {} },
              { type: 'video', payload: { url: 'https://v.example/a.mp4' } },
              { type: 'image', payload: { url: 'https://i.example/b.jpg' } },
            ],
          },
        }),
      ),
      'messenger',
    );
    expect(result.messages).toHaveLength(1);
    expect(result.ignored).toBe(2);
    expect(result.messages[0]).toMatchObject({
      kind: 'video',
      media: { url: 'https://v.example/a.mp4' },
    });
  });

  it("skips echoes and the page's own messages", () => {
    const result = parseMessengerNotification(
      page(
        'page',
        event(
          { message: { mid: 'm_7', text: 'our reply', is_echo: true, app_id: 1517776481860111 } },
          PAGE,
        ),
        event({ message: { mid: 'm_8', text: 'echo with customer sender', is_echo: true } }),
        event({ message: { mid: 'm_9', text: 'from the page itself' } }, PAGE),
      ),
      'messenger',
    );
    expect(result).toMatchObject({ messages: [], statuses: [], ignored: 3 });
  });

  it('turns delivery mids into statuses and watermark-only receipts into watermarks', () => {
    const result = parseMessengerNotification(
      page(
        'page',
        event({ delivery: { mids: ['m_out1', 'm_out2'], watermark: 1458668856253 } }),
        event({ read: { watermark: 1458668856253 } }),
        event({ delivery: { watermark: 1458668856000 } }),
      ),
      'messenger',
    );
    expect(result.statuses).toEqual([
      { providerMessageId: 'm_out1', status: 'delivered', error: null, recipient: PSID },
      { providerMessageId: 'm_out2', status: 'delivered', error: null, recipient: PSID },
    ]);
    expect(result.watermarks).toEqual([
      { recipient: PSID, status: 'read', watermark: new Date(1458668856253) },
      { recipient: PSID, status: 'delivered', watermark: new Date(1458668856000) },
    ]);
  });

  it('reads an Instagram text message and an Instagram read receipt naming its mid', () => {
    const body = page(
      'instagram',
      event({ message: { mid: 'aWdfZAG1faXRlbToxOklH', text: 'is this available?' } }),
      event({ read: { mid: 'aWdfb3V0' } }),
    );
    const result = parseMessengerNotification(body, 'instagram');
    expect(result.messages[0]).toMatchObject({
      providerMessageId: 'aWdfZAG1faXRlbToxOklH',
      from: PSID,
      kind: 'text',
      text: 'is this available?',
    });
    expect(result.statuses).toEqual([
      { providerMessageId: 'aWdfb3V0', status: 'read', error: null, recipient: PSID },
    ]);
  });

  it("ignores a body of the other channel's object and events it does not handle", () => {
    expect(
      parseMessengerNotification(
        page('page', event({ message: { mid: 'm', text: 'x' } })),
        'instagram',
      ),
    ).toMatchObject({ messages: [], ignored: 1 });
    const result = parseMessengerNotification(
      page(
        'page',
        event({ postback: { title: 'Start', payload: 'GET_STARTED' } }),
        event({ reaction: { mid: 'm', action: 'react' } }),
        event({ message: { mid: 'm_d', is_deleted: true } }),
      ),
      'messenger',
    );
    expect(result).toMatchObject({ messages: [], ignored: 3 });
  });
});
