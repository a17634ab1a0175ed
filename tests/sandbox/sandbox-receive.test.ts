import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { test as base } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver } from '../helpers/receivers.js';
import { eventsOf } from '../whatsapp-inbound/inbound-fixture.js';

const secret = newWebhookSecret();
const hooks = await startWebhookReceiver(secret);
afterAll(() => hooks.close());

const test = base.extend('tenant', { scope: 'file' }, async ({ server }) => {
  const file = tenantSeed('Played');
  file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.received'] }];
  const ids = await server.seed(file);
  const other = await server.seed(tenantSeed('Other'));
  return {
    owner: ids.users!.owner!.apiKey!,
    member: ids.users!.member!.apiKey!,
    main: ids.channels!.main!,
    second: ids.channels!.second!,
    otherChannel: other.channels!.main!,
  };
});
test.override('serverEnv', { ALLOW_HTTP_WEBHOOKS: 'true' });

describe('workspace/sandbox/receive: a customer’s message played over the API', () => {
  test('is recorded like a WhatsApp message: event, unread conversation, open window; read and replied to', async ({
    server,
    tenant,
  }) => {
    const sb = server.client(tenant.member);
    const played = await sb.workspace.sandbox.receive({ from: '+1 555 000 7777', text: 'Is A-1001 shipped?' });
    expect(played).toEqual({
      success: true,
      data: { msgid: expect.stringMatching(/^wamid\./), from: '15550007777', type: 'text' },
      message: 'Customer message received',
    });
    const { msgid } = played.data;

    await expect
      .poll(() => eventsOf(hooks.received, 'message.received').length, { timeout: 20_000, interval: 100 })
      .toBe(1);
    expect(eventsOf<{ msgid: string; text: string }>(hooks.received, 'message.received')[0]!.data).toMatchObject({
      msgid,
      text: 'Is A-1001 shipped?',
      contact: { phone: '15550007777' },
    });
    const inbox = await sb.workspace.chat.conversations.list({ unread: true });
    expect(inbox.data.find((conversation) => conversation.phone === '15550007777')).toMatchObject({
      unreadCount: 1,
      lastMessage: { msgid, direction: 'inbound' },
    });

    // The window it opened lets a session message quote it; reading it clears the unread count.
    const reply = await sb.workspace.chat.message.send({ to: '15550007777', text: 'Today!', replyTo: msgid });
    expect(reply.data.status).toBe('accepted');
    expect((await sb.workspace.chat.message.read({ msgid })).data).toMatchObject({ msgid, markedRead: 1 });
  });

  test('an image is the sandbox’s placeholder photo, its text the caption: chat/media/get links to it', async ({
    server,
    tenant,
  }) => {
    const sb = server.client(tenant.member);
    const played = await sb.workspace.sandbox.receive({ from: '15550007778', type: 'image', text: 'The parcel' });
    expect(played.data.type).toBe('image');
    const [message] = (await sb.workspace.chat.messages.list({ phone: '15550007778' })).data;
    expect(message).toMatchObject({
      msgid: played.data.msgid,
      type: 'image',
      text: 'The parcel',
      media: expect.objectContaining({ mimeType: 'image/png', caption: 'The parcel' }),
    });
    const link = await sb.workspace.chat.media.get({ msgid: played.data.msgid });
    // The link is on PUBLIC_URL; the test server listens elsewhere.
    const file = await fetch(`${server.baseUrl}${new URL(link.data.url).pathname}`);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  test('refuses a text without text, a WhatsApp channel (400 naming channelId), another’s channel (403)', async ({
    server,
    tenant,
  }) => {
    const owner = (body: Record<string, unknown>) =>
      server.http.post('/api/workspace/v1/sandbox/receive', body, { headers: { 'X-API-Key': tenant.owner } });
    expect((await owner({ channelId: tenant.main, from: '15550007779' })).data).toEqual({
      success: false,
      error: 'invalid_request',
      message: 'text: is required for type text',
    });

    await sql(server.databaseUrl, `update channels set provider = 'whatsapp_cloud' where id = $1`, [tenant.second]);
    const whatsapp = await owner({ channelId: tenant.second, from: '15550007779', text: 'Hi' });
    expect([whatsapp.status, whatsapp.data.message]).toEqual([400, 'channelId: is not a sandbox channel']);

    const foreign = await owner({ channelId: tenant.otherChannel, from: '15550007779', text: 'Hi' });
    expect([foreign.status, foreign.data.error]).toEqual([403, 'forbidden']);
    const [row] = await sql(server.databaseUrl, `select count(*)::int as n from messages where "from" = '15550007779'`);
    expect(row!.n).toBe(0);
  });
});
