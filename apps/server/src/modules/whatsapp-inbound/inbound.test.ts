import { describe, expect, it } from 'vitest';
import { parseInboundNotification as parseAt } from './inbound.js';

/** Shortly after the fixtures' timestamps: they are within the trusted window. */
const RECEIVED_AT = new Date('2025-11-23T09:30:00.000Z');
const parseInboundNotification = (payload: unknown) => parseAt(payload, RECEIVED_AT);

const WABA = '102290129340398';
const PHONE = '106540352242922';

const messagesChange = (value: Record<string, unknown>) => ({
  field: 'messages',
  value: {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550100000', phone_number_id: PHONE },
    ...value,
  },
});
const notification = (...changes: unknown[]) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: WABA, changes }],
});

describe('parseInboundNotification', () => {
  it('reads the documented example: statuses, an inbound text with its contact name', () => {
    const result = parseInboundNotification(
      notification(
        messagesChange({
          statuses: [
            { id: 'wamid.A', status: 'delivered', timestamp: '1763890000', recipient_id: '15550001234' },
            {
              id: 'wamid.B',
              status: 'failed',
              timestamp: '1763890005',
              recipient_id: '15550009999',
              errors: [{ code: 131026, title: 'Message undeliverable' }],
            },
          ],
          contacts: [{ profile: { name: 'Ada Lovelace' }, wa_id: '15550001234' }],
          messages: [
            {
              from: '15550001234',
              id: 'wamid.IN',
              timestamp: '1763890010',
              type: 'text',
              text: { body: 'Where is my order?' },
            },
          ],
        }),
      ),
    );
    expect(result.ignored).toEqual([]);
    expect(result.events).toEqual([
      {
        kind: 'status',
        wabaId: WABA,
        phoneNumberId: PHONE,
        providerMessageId: 'wamid.A',
        status: 'delivered',
        timestamp: '2025-11-23T09:26:40.000Z',
        recipientId: '15550001234',
      },
      {
        kind: 'status',
        wabaId: WABA,
        phoneNumberId: PHONE,
        providerMessageId: 'wamid.B',
        status: 'failed',
        timestamp: '2025-11-23T09:26:45.000Z',
        recipientId: '15550009999',
        error: { code: 131026, title: 'Message undeliverable' },
      },
      {
        kind: 'message',
        wabaId: WABA,
        phoneNumberId: PHONE,
        providerMessageId: 'wamid.IN',
        from: '15550001234',
        contactName: 'Ada Lovelace',
        type: 'text',
        text: 'Where is my order?',
        timestamp: '2025-11-23T09:26:50.000Z',
      },
    ]);
  });

  it('reads template review results', () => {
    const result = parseInboundNotification(
      notification({
        field: 'message_template_status_update',
        value: {
          event: 'REJECTED',
          message_template_id: 594425479261596,
          message_template_name: 'order_update',
          message_template_language: 'en_US',
          reason: 'INCORRECT_CATEGORY',
        },
      }),
    );
    expect(result).toEqual({
      events: [
        {
          kind: 'template_status',
          wabaId: WABA,
          event: 'REJECTED',
          templateId: '594425479261596',
          templateName: 'order_update',
          language: 'en_US',
          reason: 'INCORRECT_CATEGORY',
        },
      ],
      ignored: [],
      replaced: [],
    });
  });

  it('reads every entry and change of a batch, and non-text messages without a body', () => {
    const batch = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA,
          changes: [messagesChange({ statuses: [{ id: 'wamid.1', status: 'sent', timestamp: 1763890000 }] })],
        },
        {
          id: 'other-waba',
          changes: [
            messagesChange({ statuses: [{ id: 'wamid.2', status: 'read', timestamp: '1763890001' }] }),
            messagesChange({
              messages: [
                {
                  from: '15550001234',
                  id: 'wamid.3',
                  timestamp: '1763890002',
                  type: 'image',
                  image: { id: 'media-1' },
                },
              ],
            }),
          ],
        },
      ],
    };
    const { events, ignored } = parseInboundNotification(batch);
    expect(ignored).toEqual([]);
    expect(
      events.map((event) => [event.kind, event.wabaId, 'providerMessageId' in event ? event.providerMessageId : '']),
    ).toEqual([
      ['status', WABA, 'wamid.1'],
      ['status', 'other-waba', 'wamid.2'],
      ['message', 'other-waba', 'wamid.3'],
    ]);
    expect(events[2]).not.toHaveProperty('text');
    expect(events[2]).not.toHaveProperty('contactName');
  });

  it('carries each message’s readable text and media fields', () => {
    const { events } = parseInboundNotification(
      notification(
        messagesChange({
          messages: [
            {
              from: '15550001234',
              id: 'wamid.IMG',
              timestamp: '1763890010',
              type: 'image',
              image: { id: '1234567890', mime_type: 'image/jpeg', sha256: 'abc=', caption: 'Broken box' },
            },
            {
              from: '15550001234',
              id: 'wamid.LOC',
              timestamp: '1763890011',
              type: 'location',
              location: { latitude: 52.52, longitude: 13.405 },
            },
          ],
        }),
      ),
    );
    expect(events).toMatchObject([
      {
        providerMessageId: 'wamid.IMG',
        type: 'image',
        text: 'Broken box',
        media: { id: '1234567890', mimeType: 'image/jpeg', sha256: 'abc=', caption: 'Broken box' },
      },
      { providerMessageId: 'wamid.LOC', type: 'location', text: '52.52,13.405' },
    ]);
    expect(events[1]).not.toHaveProperty('media');
  });

  it('skips and reports what it does not understand, keeping the rest', () => {
    const { events, ignored } = parseInboundNotification({
      object: 'whatsapp_business_account',
      entry: [
        'nonsense',
        {
          id: WABA,
          changes: [
            { field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } },
            { field: 'messages', value: { statuses: [] } },
            { field: 'message_template_status_update', value: { event: 'APPROVED' } },
            messagesChange({
              errors: [{ code: 131000 }],
              statuses: [
                { id: 'wamid.ok', status: 'read', timestamp: '1763890000', unknown_field: { nested: true } },
                { id: 'wamid.del', status: 'deleted', timestamp: '1763890000' },
                { id: 'wamid.bad', status: 'sent', timestamp: 'yesterday' },
              ],
              messages: [{ id: 'wamid.nofrom', timestamp: '1763890000', type: 'text' }],
            }),
          ],
        },
      ],
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'status', providerMessageId: 'wamid.ok', status: 'read' });
    expect(events[0]).not.toHaveProperty('unknown_field');
    expect(ignored).toEqual([
      'entry[0]: unreadable',
      'entry[1].changes[0]: field "account_update" is not handled',
      'entry[1].changes[1]: messages change without metadata.phone_number_id',
      'entry[1].changes[2]: unreadable template status update',
      'entry[1].changes[3]: "errors" is not handled',
      'entry[1].changes[3].statuses[1]: status "deleted" is not handled',
      'entry[1].changes[3].statuses[2]: unreadable',
      'entry[1].changes[3].messages[0]: unreadable',
    ]);
  });

  it('never throws on payloads that are not notifications', () => {
    for (const payload of [undefined, null, 42, 'text', [], {}, { entry: 'x' }]) {
      expect(parseInboundNotification(payload)).toEqual({
        events: [],
        ignored: ['payload: not a webhook notification with entry[]'],
        replaced: [],
      });
    }
    expect(parseInboundNotification({ object: 'page', entry: [] }).ignored).toEqual([
      'payload: object "page" is not whatsapp_business_account',
    ]);
  });

  it('replaces a timestamp outside now - 30 days .. now + 5 minutes by the receipt time, and never throws', () => {
    const at = RECEIVED_AT.getTime() / 1000;
    const sent = [at - 60, at + 240, at + 3600, at - 31 * 86_400, 1e20, -5, Number.MAX_VALUE, 'soon', '1e400'];
    const result = parseInboundNotification(
      notification(
        messagesChange({
          messages: sent.map((timestamp, n) => ({ id: `wamid.${n}`, from: '15550001234', timestamp, type: 'text' })),
        }),
      ),
    );
    expect(result.events.map((event) => event.kind === 'message' && event.timestamp)).toEqual([
      new Date((at - 60) * 1000).toISOString(),
      new Date((at + 240) * 1000).toISOString(),
      ...Array.from({ length: 5 }, () => RECEIVED_AT.toISOString()),
    ]);
    expect(result.replaced).toHaveLength(5);
    expect(result.replaced[2]).toBe(
      'entry[0].changes[0].messages[4]: timestamp 100000000000000000000 replaced by the receipt time',
    );
    // Not numbers at all: unreadable, as before.
    expect(result.ignored).toEqual([
      'entry[0].changes[0].messages[7]: unreadable',
      'entry[0].changes[0].messages[8]: unreadable',
    ]);
  });
});
