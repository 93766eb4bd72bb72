import { parseWhatsAppNotification, phoneNumberIdOf } from './webhook-payloads';

function notification(value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

const contacts = [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }];

function inbound(message: Record<string, unknown>) {
  return notification({
    contacts,
    messages: [
      {
        from: '16505551234',
        id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        timestamp: '1749416383',
        ...message,
      },
    ],
  });
}

describe('parseWhatsAppNotification', () => {
  it('reads a text message with the sender and the profile name from contacts', () => {
    const result = parseWhatsAppNotification(
      inbound({ type: 'text', text: { body: 'Does it come in another color?' } }),
    );
    expect(result).toEqual({
      messages: [
        {
          providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
          from: '16505551234',
          profileName: 'Sheena Nelson',
          timestamp: new Date(1749416383 * 1000),
          kind: 'text',
          text: 'Does it come in another color?',
          media: null,
        },
      ],
      statuses: [],
      watermarks: [],
      ignored: 0,
    });
  });

  it('reads an image with its caption as text and media', () => {
    const [message] = parseWhatsAppNotification(
      inbound({
        type: 'image',
        image: {
          caption: 'Is this in stock?',
          mime_type: 'image/jpeg',
          sha256: 'abc=',
          id: '1003383421387256',
        },
      }),
    ).messages;
    expect(message).toMatchObject({
      kind: 'image',
      text: 'Is this in stock?',
      media: {
        providerId: '1003383421387256',
        url: null,
        mimeType: 'image/jpeg',
        caption: 'Is this in stock?',
      },
    });
  });

  it('reads audio, video, document and sticker as media without text when uncaptioned', () => {
    for (const kind of ['audio', 'video', 'document', 'sticker'] as const) {
      const [message] = parseWhatsAppNotification(
        inbound({
          type: kind,
          [kind]: { id: `media-${kind}`, mime_type: 'application/octet-stream', voice: true },
        }),
      ).messages;
      expect(message).toMatchObject({
        kind,
        text: null,
        media: { providerId: `media-${kind}`, caption: null },
      });
    }
  });

  it('reads a location as "lat,long name"', () => {
    const [message] = parseWhatsAppNotification(
      inbound({
        type: 'location',
        location: {
          latitude: 37.483307,
          longitude: -122.148981,
          name: 'Pablo Morales',
          address: '1 Hacker Way',
        },
      }),
    ).messages;
    expect(message).toMatchObject({
      kind: 'location',
      text: '37.483307,-122.148981 Pablo Morales',
      media: null,
    });
  });

  it('reads tapped buttons and list rows as their text', () => {
    const button = parseWhatsAppNotification(
      inbound({ type: 'button', button: { payload: 'P', text: 'Yes please' } }),
    );
    const list = parseWhatsAppNotification(
      inbound({
        type: 'interactive',
        interactive: { type: 'list_reply', list_reply: { id: 'r1', title: 'Order status' } },
      }),
    );
    expect(button.messages[0]).toMatchObject({ kind: 'text', text: 'Yes please' });
    expect(list.messages[0]).toMatchObject({ kind: 'text', text: 'Order status' });
  });

  it('ignores reactions, contacts, unsupported and system messages', () => {
    const result = parseWhatsAppNotification(
      notification({
        messages: [
          { from: '1', id: 'a', type: 'reaction', reaction: { message_id: 'x', emoji: '👍' } },
          { from: '1', id: 'b', type: 'contacts', contacts: [] },
          { from: '1', id: 'c', type: 'unsupported', errors: [{ code: 131051 }] },
          { from: '1', id: 'd', type: 'system', system: { body: 'changed number' } },
        ],
      }),
    );
    expect(result).toMatchObject({ messages: [], statuses: [], ignored: 4 });
  });

  it('reads sent, delivered and read statuses with the recipient', () => {
    const result = parseWhatsAppNotification(
      notification({
        statuses: ['sent', 'delivered', 'read'].map((status) => ({
          id: 'wamid.OUT1',
          status,
          timestamp: '1750263773',
          recipient_id: '16505551234',
          conversation: { id: 'c1', origin: { type: 'service' } },
          pricing: { billable: true, pricing_model: 'PMP', category: 'service' },
        })),
      }),
    );
    expect(result.statuses).toEqual(
      ['sent', 'delivered', 'read'].map((status) => ({
        providerMessageId: 'wamid.OUT1',
        status,
        error: null,
        recipient: '16505551234',
      })),
    );
  });

  it("reads a failed status with Meta's reason", () => {
    const result = parseWhatsAppNotification(
      notification({
        statuses: [
          {
            id: 'wamid.OUT2',
            status: 'failed',
            timestamp: '1750263773',
            recipient_id: '16505551234',
            errors: [
              {
                code: 131047,
                title: 'Re-engagement message',
                message: 'Re-engagement message',
                error_data: {
                  details:
                    'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
                },
              },
            ],
          },
          { id: 'wamid.OUT3', status: 'failed', recipient_id: '1' },
        ],
      }),
    );
    expect(result.statuses[0].error).toBe(
      'Re-engagement message: Message failed to send because more than 24 hours have passed since the customer last replied to this number. (code 131047)',
    );
    expect(result.statuses[1].error).toBe('failed');
  });

  it('ignores other fields, other objects and unknown statuses', () => {
    expect(parseWhatsAppNotification({ ...notification({}), object: 'page' })).toMatchObject({
      ignored: 1,
    });
    const other = notification({});
    (other.entry[0].changes[0] as { field: string }).field = 'account_update';
    expect(parseWhatsAppNotification(other)).toMatchObject({ messages: [], ignored: 1 });
    expect(
      parseWhatsAppNotification(notification({ statuses: [{ id: 'w', status: 'deleted' }] }))
        .ignored,
    ).toBe(1);
  });

  it('names the phone number id of the first change', () => {
    expect(phoneNumberIdOf(inbound({ type: 'text', text: { body: 'x' } }))).toBe('106540352242922');
    expect(
      phoneNumberIdOf({
        entry: [{ changes: [{ value: { metadata: { phone_number_id: { x: 1 } } } }] }],
      }),
    ).toBeNull();
    expect(phoneNumberIdOf(null)).toBeNull();
    expect(phoneNumberIdOf('entry')).toBeNull();
  });
});
