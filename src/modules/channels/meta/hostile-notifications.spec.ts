import {
  parseMessengerNotification,
  parseWhatsAppNotification,
  phoneNumberIdOf,
} from './webhook-payloads';

const parsers = [
  ['WhatsApp', (body: unknown) => parseWhatsAppNotification(body)],
  ['Messenger', (body: unknown) => parseMessengerNotification(body, 'messenger')],
  ['Instagram', (body: unknown) => parseMessengerNotification(body, 'instagram')],
] as const;

function deep(levels: number): unknown {
  let value: unknown = { text: { body: 'bottom' } };
  for (let i = 0; i < levels; i += 1) {
    value = { entry: [value], changes: [value] };
  }
  return value;
}

function whatsapp(value: unknown) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ changes: [{ field: 'messages', value }] }],
  };
}

const text = (i: number) => ({
  from: '15551234567',
  id: `wamid.${i}`,
  type: 'text',
  text: { body: `m${i}` },
});

describe.each(parsers)('%s notification parser on hostile bodies', (_name, parse) => {
  const hostile: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a string', 'whatsapp_business_account'],
    ['a number', 42],
    ['an array', [{ object: 'page' }]],
    ['entry as a string', { object: 'page', entry: 'x' }],
    [
      'entries of wrong types',
      { object: 'whatsapp_business_account', entry: [null, 1, 'x', [], { changes: {} }] },
    ],
    ['5,000-deep nesting', deep(5000)],
    [
      'prototype keys',
      JSON.parse(
        '{"__proto__":{"object":"page"},"constructor":{"prototype":{}},"object":"toString"}',
      ),
    ],
  ];

  it.each(hostile)('returns an empty, bounded result for %s', (_label, body) => {
    const result = parse(body);
    expect(result.messages).toEqual([]);
    expect(result.statuses).toEqual([]);
    expect(result.ignored).toBeGreaterThanOrEqual(0);
  });

  it('stays bounded on 10,000-element arrays at every level', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => i);
    const body = {
      object: 'whatsapp_business_account',
      entry: many.map(() => ({ id: '1', changes: many, messaging: many })),
    };
    const started = process.hrtime.bigint();
    const result = parse(body);
    expect(result.messages).toEqual([]);
    expect(result.ignored).toBeGreaterThan(0);
    expect(process.hrtime.bigint() - started).toBeLessThan(2_000_000_000n);
  });
});

describe('WhatsApp notification caps', () => {
  it('keeps at most 100 messages and 100 statuses, counting the rest as ignored', () => {
    const result = parseWhatsAppNotification(
      whatsapp({
        messages: Array.from({ length: 10_000 }, (_, i) => text(i)),
        statuses: Array.from({ length: 10_000 }, (_, i) => ({ id: `s${i}`, status: 'read' })),
      }),
    );
    expect(result.messages).toHaveLength(100);
    expect(result.statuses).toHaveLength(100);
    expect(result.messages[99].providerMessageId).toBe('wamid.99');
    expect(result.ignored).toBe(20_000 - 200);
  });

  it('cuts text to 4,096 characters, drops NUL, and refuses over-long or odd ids', () => {
    const result = parseWhatsAppNotification(
      whatsapp({
        contacts: [{ wa_id: '1', profile: { name: 'n'.repeat(10_000) } }],
        messages: [
          { ...text(1), from: '1', text: { body: `a\u0000b${'x'.repeat(100_000)}` } },
          { ...text(2), id: 'i'.repeat(257) },
          { ...text(3), id: 'has space' },
          { ...text(4), from: ['15551234567'] },
          { ...text(5), text: { body: '   ' } },
          { ...text(6), text: 'not an object' },
          { ...text(7), type: '__proto__' },
          { ...text(8), type: 'image', image: { id: { $gt: '' } } },
        ],
      }),
    );
    expect(result.messages).toHaveLength(1);
    expect(result.messages[0].text).toHaveLength(4096);
    expect(result.messages[0].text!.startsWith('abx')).toBe(true);
    expect(result.messages[0].profileName).toHaveLength(256);
    expect(result.ignored).toBe(7);
  });

  it('never splits a surrogate pair when cutting', () => {
    const body = `${'x'.repeat(4095)}😀`;
    const [message] = parseWhatsAppNotification(
      whatsapp({ messages: [{ ...text(1), text: { body } }] }),
    ).messages;
    expect(message.text).toBe('x'.repeat(4095));
  });

  it('reads only own properties: an inherited-looking key is not content', () => {
    const body = JSON.parse(
      '{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[{"from":"1","id":"w","type":"text","text":{"__proto__":{"body":"polluted"}}}]}}]}]}',
    );
    const result = parseWhatsAppNotification(body);
    expect(result.messages).toEqual([]);
    expect(({} as Record<string, unknown>).body).toBeUndefined();
  });

  it('gives a null timestamp for nonsense and a null phone number id for a hostile one', () => {
    const result = parseWhatsAppNotification(
      whatsapp({
        messages: [
          { ...text(1), timestamp: '1e99' },
          { ...text(2), timestamp: -5 },
        ],
      }),
    );
    expect(result.messages.map((m) => m.timestamp)).toEqual([null, null]);
    expect(phoneNumberIdOf(deep(5000))).toBeNull();
    expect(
      phoneNumberIdOf(whatsapp({ metadata: { phone_number_id: 'x'.repeat(300) } })),
    ).toBeNull();
  });
});

describe('Messenger notification caps', () => {
  it('keeps at most 100 messages and 100 statuses from a body of many events', () => {
    const messaging = [
      ...Array.from({ length: 500 }, (_, i) => ({
        sender: { id: 'u' },
        message: { mid: `m${i}`, text: 'hi' },
      })),
      {
        sender: { id: 'u' },
        delivery: { mids: Array.from({ length: 10_000 }, (_, i) => `d${i}`) },
      },
    ];
    const result = parseMessengerNotification(
      { object: 'page', entry: [{ id: 'p', messaging }] },
      'messenger',
    );
    expect(result.messages).toHaveLength(100);
    expect(result.statuses).toHaveLength(100);
    expect(result.ignored).toBe(400 + 10_000 - 100);
  });

  it('refuses attachment URLs that are not http(s)', () => {
    const result = parseMessengerNotification(
      {
        object: 'instagram',
        entry: [
          {
            id: 'p',
            messaging: ['javascript:alert(1)', 'file:///etc/passwd', 'not a url', 7].map(
              (url, i) => ({
                sender: { id: 'u' },
                message: { mid: `m${i}`, attachments: [{ type: 'image', payload: { url } }] },
              }),
            ),
          },
        ],
      },
      'instagram',
    );
    expect(result.messages).toEqual([]);
    expect(result.ignored).toBe(4);
  });
});
