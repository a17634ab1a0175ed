import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectForbidden, expectInvalid } from '../helpers/expect.js';
import type { TestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';

type SendParams = Parameters<ReturnType<TestServer['client']>['workspace']['chat']['message']['send']>[0];
/** Every field of every form of chat/message/send. */
type RefusedParams = { [K in SendParams extends unknown ? keyof SendParams : never]: unknown };
const SEND_PATH = '/api/workspace/v1/chat/message/send';
const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const test = base
  .extend(
    'send',
    ({ server, acme }) =>
      (params: SendParams, apiKey = acme.memberKey) =>
        server.client(apiKey).workspace.chat.message.send(params),
  )
  .extend('count', ({ server }) => async () => {
    const [row] = await sql(server.databaseUrl, 'select count(*)::int as n from messages');
    return row!.n as number;
  })
  /** A customer's message on Acme's main channel `sentAgo` ms ago, seeded as WhatsApp would have recorded it. */
  .extend('wrote', ({ server, acme }) => async (from: string, sentAgo: number) => {
    const msgid = `wamid.in${from}${sentAgo}`;
    await server.seed({
      messages: [
        { channel: acme.mainChannelId, msgid, direction: 'inbound', from, text: 'Hello?', createdAt: ago(sentAgo) },
      ],
    });
    return msgid;
  });

describe('workspace chat/message/send (sandbox)', () => {
  test('sends a text into an open window, records it in the conversation and moves on like a template', async ({
    server,
    acme,
    send,
  }) => {
    const reply = await send({ to: '+1 555 000 0001', text: 'It ships today.', replyTo: acme.inboundMsgid });
    expect(reply).toEqual({
      success: true,
      message: 'Message queued',
      data: { msgid: expect.stringMatching(/^wamid\./), status: 'accepted', to: '15550000001', type: 'text' },
    });
    const [row] = await sql(
      server.databaseUrl,
      `select m.direction, m.type, m.status, m.body, m.media, m.reply_to, m.automation_id, m.provider, c.phone
         from messages m join contacts c on c.id = m.contact_id where m.msgid = $1`,
      [reply.data.msgid],
    );
    expect(row).toEqual({
      direction: 'outbound',
      type: 'text',
      status: 'accepted',
      body: 'It ships today.',
      media: null,
      reply_to: acme.inboundMsgid,
      automation_id: null,
      provider: 'sandbox',
      phone: '15550000001',
    });
    const client = server.client(acme.memberKey);
    await expect
      .poll(async () => (await client.workspace.chat.message.status({ msgid: reply.data.msgid })).data.status, {
        timeout: 5000,
        interval: 50,
      })
      .toBe('delivered');
    const history = await client.workspace.chat.messages.list({ phone: '15550000001', limit: 1 });
    expect(history.data[0]).toMatchObject({
      msgid: reply.data.msgid,
      direction: 'outbound',
      text: 'It ships today.',
      replyTo: acme.inboundMsgid,
      media: null,
      automationId: null,
    });
  });

  test('sends every media type by link, with caption and filename where they belong', async ({
    server,
    acme,
    send,
  }) => {
    const url = 'https://files.example.com/invoice.pdf';
    const sent = [
      await send({ contactId: acme.ids.contacts!.ada!, type: 'image', mediaUrl: url, caption: 'Your parcel' }),
      await send({ to: '15550000001', type: 'document', mediaUrl: url, caption: 'Invoice', filename: 'A-1001.pdf' }),
      await send({ to: '15550000001', type: 'audio', mediaUrl: url }),
      await send({ to: '15550000001', type: 'video', mediaUrl: url, caption: 'Unboxing' }),
    ];
    expect(sent.map((reply) => reply.data.type)).toEqual(['image', 'document', 'audio', 'video']);
    const rows = await sql(
      server.databaseUrl,
      'select type, body, media from messages where msgid = any($1) order by created_at',
      [sent.map((reply) => reply.data.msgid)],
    );
    expect(rows).toEqual([
      { type: 'image', body: 'Your parcel', media: { url, caption: 'Your parcel' } },
      { type: 'document', body: 'Invoice', media: { url, caption: 'Invoice', filename: 'A-1001.pdf' } },
      { type: 'audio', body: null, media: { url } },
      { type: 'video', body: 'Unboxing', media: { url, caption: 'Unboxing' } },
    ]);
  });

  test('refuses wrong combinations with a 400 naming the field, and records nothing', async ({
    acme,
    send: sendAsMember,
    count,
  }) => {
    // Another key of the main channel: the member's 30 writes a minute are for the other tests.
    // Parameters the server refuses, which the SDK's types refuse too (one form per type): sent past the types.
    const send = (params: Partial<Record<keyof RefusedParams, unknown>>) =>
      sendAsMember(params as SendParams, acme.auditorKey);
    const before = await count();
    const to = '15550000001';
    const https = 'https://files.example.com/a.jpg';
    await expectInvalid(send({ text: 'hi' } as SendParams), 'to', 'is required \\(or contactId\\)');
    await expectInvalid(
      send({ to, contactId: '9f2b4d6e-8a1c-4e3f-b5d7-0c2e4a6b8d13', text: 'x' } as unknown as SendParams),
      'contactId',
    );
    await expectInvalid(send({ to }), 'text', 'is required for type text');
    await expectInvalid(send({ to, text: 'x'.repeat(4097) }), 'text', 'at most 4096');
    await expectInvalid(send({ to, text: '' }), 'text', 'must not be empty');
    await expectInvalid(send({ to, type: 'image' }), 'mediaUrl', 'is required for type image');
    await expectInvalid(send({ to, type: 'image', mediaUrl: 'http://files.example.com/a.jpg' }), 'mediaUrl', 'https');
    await expectInvalid(send({ to, type: 'image', mediaUrl: https, text: 'x' }), 'text', 'use caption');
    await expectInvalid(send({ to, text: 'x', mediaUrl: https }), 'mediaUrl', 'is for the media types');
    await expectInvalid(send({ to, type: 'audio', mediaUrl: https, caption: 'x' }), 'caption', 'image, document');
    await expectInvalid(send({ to, type: 'image', mediaUrl: https, caption: 'x'.repeat(1025) }), 'caption');
    await expectInvalid(send({ to, type: 'image', mediaUrl: https, filename: 'a.jpg' }), 'filename', 'document');
    await expectInvalid(send({ to, type: 'video', mediaUrl: https, previewUrl: true }), 'previewUrl', 'type text');
    await expectInvalid(send({ to, type: 'sticker' as 'image', mediaUrl: https }), 'type');
    await expectInvalid(send({ to: '12', text: 'x' }), 'to', '8 to 15 digits');
    expect(await count()).toBe(before);
  });

  test('refuses a replyTo that is unknown or of another conversation', async ({ acme, send, wrote, count }) => {
    const other = await wrote('15550000020', 60_000);
    const before = await count();
    await expectInvalid(send({ to: '15550000001', text: 'x', replyTo: 'wamid.NOPE' }), 'replyTo', 'this conversation');
    await expectInvalid(send({ to: '15550000001', text: 'x', replyTo: other }), 'replyTo', 'this conversation');
    await expectInvalid(send({ to: '15550000020', text: 'x', replyTo: acme.inboundMsgid }), 'replyTo');
    expect(await count()).toBe(before);
    expect((await send({ to: '15550000020', text: 'x', replyTo: other })).data.status).toBe('accepted');
  });

  test('keeps the 24-hour window: open at 23 h 59 m, closed at 24 h 1 m, closed for a contact who never wrote', async ({
    server,
    send,
    wrote,
    count,
  }) => {
    await wrote('15550000030', 24 * HOUR - 60_000);
    expect((await send({ to: '15550000030', text: 'Still in time' })).data.status).toBe('accepted');

    await wrote('15550000031', 24 * HOUR + 60_000);
    const [{ created_at: sentAt }] = (await sql(
      server.databaseUrl,
      `select created_at from messages where "from" = '15550000031'`,
    )) as [{ created_at: Date }];
    const before = await count();
    await expectError(
      send({ to: '15550000031', text: 'Too late' }),
      400,
      'session_window_closed',
      `The 24-hour window for session messages to 15550000031 closed at ` +
        `${new Date(sentAt.getTime() + 24 * HOUR).toISOString()}: send a template (chat/templates/send) instead.`,
    );
    // Grace is a contact who never wrote; 15550000099 is not even a contact (and does not become one).
    await expectError(send({ to: '15550000002', text: 'Hi' }), 400, 'session_window_closed', /never written/);
    await expectError(send({ to: '15550000099', text: 'Hi' }), 400, 'session_window_closed', /template/);
    expect(await count()).toBe(before);
    const [contacts] = await sql(
      server.databaseUrl,
      `select count(*)::int as n from contacts where phone = '15550000099'`,
    );
    expect(contacts!.n).toBe(0);
  });

  test('a replayed send with the same Idempotency-Key sends once and answers the same', async ({
    server,
    acme,
    count,
  }) => {
    const headers = { 'X-API-Key': acme.memberKey, 'Idempotency-Key': 'reply-ada-1' };
    const body = { to: '15550000001', text: 'Once only' };
    const first = await server.http.post(SEND_PATH, body, { headers });
    const afterFirst = await count();
    const second = await server.http.post(SEND_PATH, body, { headers });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.data).toEqual(first.data);
    expect(await count()).toBe(afterFirst);
    const [row] = await sql(server.databaseUrl, `select count(*)::int as n from messages where body = 'Once only'`);
    expect(row!.n).toBe(1);
  });

  test('403 for another tenant’s channel or contact; 404 for an unknown contact', async ({ globex, send, count }) => {
    const before = await count();
    await expectForbidden(send({ channelId: globex.mainChannelId, to: '15550000001', text: 'x' }));
    await expectForbidden(send({ contactId: globex.ids.contacts!.ada!, text: 'x' }));
    await expectError(send({ contactId: '00000000-0000-4000-8000-000000000000', text: 'x' }), 404, 'contact_not_found');
    expect(await count()).toBe(before);
  });
});
