import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { graphError, startGraphStandIn } from '../helpers/graph-stand-in.js';
import { test as base } from '../helpers/test.js';
import { SECRETS_KEY, whatsAppAccount, whatsAppTenantIds, whatsAppTenantSeed } from './whatsapp-fixtures.js';

const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: [] },
});
afterAll(() => graph.close());

const MESSAGES_PATH = `/v23.0/${account.phoneNumberId}/messages`;
const CUSTOMER = '15550001234';
const calls = () => graph.requests.filter((request) => request.method === 'POST' && request.path === MESSAGES_PATH);

const test = base
  .extend('wa', { scope: 'file' }, async ({ server }) => {
    const wa = whatsAppTenantIds(await server.seed(whatsAppTenantSeed(account)));
    // The customer wrote a minute ago (and once before): the window is open, two messages are unread.
    await server.seed({
      messages: ['wamid.IN1', 'wamid.IN2'].map((msgid, i) => ({
        channel: wa.waChannelId,
        msgid,
        direction: 'inbound' as const,
        from: CUSTOMER,
        text: `Question ${i + 1}`,
        createdAt: new Date(Date.now() - (2 - i) * 60_000).toISOString(),
      })),
    });
    return wa;
  })
  .extend('client', ({ server, wa }) => server.client(wa.ownerKey).workspace.chat)
  .extend('messageCount', ({ server, wa }) => async () => {
    const [row] = await sql(server.databaseUrl, 'select count(*)::int as n from messages where channel_id = $1', [
      wa.waChannelId,
    ]);
    return row!.n as number;
  });
test.override('serverEnv', {
  SECRETS_KEY,
  WHATSAPP_GRAPH_URL: graph.url,
  WHATSAPP_GRAPH_TIMEOUT_MS: '1000',
  TEMPLATE_SYNC_MINUTES: '0',
});

describe('session messages and read receipts on a WhatsApp Cloud API channel', () => {
  const link = 'https://files.example.com/invoice.pdf';
  const SHAPES = [
    [
      { type: 'text' as const, text: 'It ships today.', replyTo: 'wamid.IN2' },
      { type: 'text', text: { body: 'It ships today.', preview_url: false }, context: { message_id: 'wamid.IN2' } },
    ],
    [
      { type: 'text' as const, text: 'See https://example.com', previewUrl: true },
      { type: 'text', text: { body: 'See https://example.com', preview_url: true } },
    ],
    [
      { type: 'image' as const, mediaUrl: link, caption: 'Parcel' },
      { type: 'image', image: { link, caption: 'Parcel' } },
    ],
    [
      { type: 'document' as const, mediaUrl: link, caption: 'Invoice', filename: 'A-1001.pdf' },
      { type: 'document', document: { link, caption: 'Invoice', filename: 'A-1001.pdf' } },
    ],
    [
      { type: 'audio' as const, mediaUrl: link },
      { type: 'audio', audio: { link } },
    ],
    [
      { type: 'video' as const, mediaUrl: link, caption: 'Unboxing' },
      { type: 'video', video: { link, caption: 'Unboxing' } },
    ],
  ] as const;

  test.for(SHAPES)('sends %o as exactly one Graph call of Meta’s shape', async ([params, shape], { wa, client }) => {
    const before = calls().length;
    const reply = await client.message.send({ channelId: wa.waChannelId, to: `+${CUSTOMER}`, ...params });
    expect(reply.data).toEqual({
      msgid: expect.stringMatching(/^wamid\.STANDIN\d+$/),
      status: 'accepted',
      to: CUSTOMER,
      type: params.type,
    });
    expect(calls().slice(before)).toHaveLength(1);
    expect(calls().at(-1)).toMatchObject({ authorization: `Bearer ${account.accessToken}` });
    expect(calls().at(-1)!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: CUSTOMER,
      ...shape,
    });
  });

  // The message is recorded before Meta is called (issue #39): each refusal leaves it failed with Meta's code.
  test('maps Meta’s refusals as chat/templates/send does, and records each failed', async ({
    server,
    wa,
    client,
    messageCount,
  }) => {
    const send = () => client.message.send({ channelId: wa.waChannelId, to: CUSTOMER, text: 'Hello' });
    const before = await messageCount();
    graph.replyOnce({ status: 400, body: graphError(131047, 'Re-engagement message') });
    await expectError(send(), 400, 'provider_rejected', /Re-engagement message \(code 131047\)/);
    graph.replyOnce({ status: 401, body: graphError(190, 'Error validating access token') });
    await expectError(send(), 502, 'provider_unauthorized');
    graph.replyOnce({ status: 503, body: graphError(2, 'Service unavailable'), headers: { 'retry-after': '17' } });
    const unavailable = await server.http.post(
      '/api/workspace/v1/chat/message/send',
      { channelId: wa.waChannelId, to: CUSTOMER, text: 'Hello' },
      { headers: { 'x-api-key': wa.ownerKey } },
    );
    expect(unavailable.status).toBe(503);
    expect(unavailable.data.error).toBe('provider_unavailable');
    expect(unavailable.headers['retry-after']).toBe('17');
    expect(await messageCount()).toBe(before + 3);
    const refused = await sql<{ status: string; error_code: number }>(
      server.databaseUrl,
      `select status, error_code from messages where channel_id = $1 and direction = 'outbound'
        order by created_at desc, id desc limit 3`,
      [wa.waChannelId],
    );
    expect(refused).toEqual([2, 190, 131047].map((code) => ({ status: 'failed', error_code: code })));
  });

  test('refuses a closed window before calling Meta', async ({ wa, client }) => {
    const before = calls().length;
    await expectError(
      client.message.send({ channelId: wa.waChannelId, to: '15550009876', text: 'Hi' }),
      400,
      'session_window_closed',
    );
    expect(calls()).toHaveLength(before);
  });

  test('read: one Graph read receipt, every earlier unread message read, no second call on repeat', async ({
    wa,
    client,
  }) => {
    const inbox = async () =>
      (await client.conversations.list({ channelId: wa.waChannelId })).data.find((c) => c.phone === CUSTOMER)!;
    expect((await inbox()).unreadCount).toBe(2);

    const before = calls().length;
    graph.replyOnce({ status: 503, body: graphError(2, 'Service unavailable') });
    await expectError(client.message.read({ msgid: 'wamid.IN2' }), 503, 'provider_unavailable');
    expect((await client.message.status({ msgid: 'wamid.IN2' })).data.status).toBe('delivered');

    const reply = await client.message.read({ msgid: 'wamid.IN2' });
    expect(reply.data).toEqual({ msgid: 'wamid.IN2', status: 'read', markedRead: 2 });
    expect(
      calls()
        .slice(before)
        .map((call) => call.body),
    ).toEqual([
      { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN2' },
      { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN2' },
    ]);
    for (const msgid of ['wamid.IN1', 'wamid.IN2'])
      expect((await client.message.status({ msgid })).data.status).toBe('read');
    expect((await inbox()).unreadCount).toBe(0);

    const afterRead = calls().length;
    expect((await client.message.read({ msgid: 'wamid.IN2' })).data.markedRead).toBe(0);
    expect((await client.message.read({ msgid: 'wamid.IN1' })).data.markedRead).toBe(0);
    expect(calls()).toHaveLength(afterRead);
  });

  test('read of an outbound message is a 400 and calls nobody', async ({ wa, client }) => {
    const sent = await client.message.send({ channelId: wa.waChannelId, to: CUSTOMER, text: 'Anything else?' });
    const before = calls().length;
    await expectInvalid(client.message.read({ msgid: sent.data.msgid }), 'msgid', 'only a customer’s message');
    expect(calls()).toHaveLength(before);
  });
});
