import { receiveSandboxMessage } from '@switchboard/server';
import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { expectError, expectForbidden, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver } from '../helpers/receivers.js';
import { eventsOf } from '../whatsapp-inbound/inbound-fixture.js';

const secret = newWebhookSecret();
const hooks = await startWebhookReceiver(secret);
afterAll(() => hooks.close());

const test = base
  .extend('tenant', { scope: 'file' }, async ({ server }) => {
    const file = tenantSeed('Inbox');
    file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.received'] }];
    const ids = await server.seed(file);
    return { key: ids.users!.member!.apiKey!, channelId: ids.channels!.main!, secondKey: ids.users!.owner!.apiKey! };
  })
  .extend('chat', ({ server, tenant }) => server.client(tenant.key).workspace.chat)
  .extend(
    'receive',
    ({ server, tenant }) =>
      (from: string, text: string, msgid?: string) =>
        receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
          channelId: tenant.channelId,
          from,
          text,
          msgid,
        }),
  );
test.override('serverEnv', { ALLOW_HTTP_WEBHOOKS: 'true', DELIVERY_RETRY_SCHEDULE: '1' });

describe('conversations: the inbox, the history and inbound sandbox messages', () => {
  test('a sandbox message is recorded as WhatsApp inbound: contact made, conversation updated, one event', async ({
    server,
    tenant,
    chat,
    receive,
  }) => {
    const first = await receive('15550004444', 'Do you ship to Mars?', 'wamid.MARS1');
    expect(first).toEqual({ msgid: 'wamid.MARS1', recorded: true });
    expect(await receive('15550004444', 'Do you ship to Mars?', 'wamid.MARS1')).toEqual({
      msgid: 'wamid.MARS1',
      recorded: false,
    });
    await server.untilIdle();
    const events = eventsOf<{ msgid: string; contact: { name: string; phone: string } }>(
      hooks.received,
      'message.received',
      (data) => data.msgid === 'wamid.MARS1',
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      channelId: tenant.channelId,
      contact: { name: '15550004444', phone: '15550004444' },
      type: 'text',
      text: 'Do you ship to Mars?',
      media: null,
    });
    const inbox = await chat.conversations.list({ limit: 1 });
    expect(inbox.data[0]).toEqual({
      contactId: expect.any(String),
      phone: '15550004444',
      name: '15550004444',
      lastMessage: {
        msgid: 'wamid.MARS1',
        direction: 'inbound',
        type: 'text',
        text: 'Do you ship to Mars?',
        interactive: null,
        createdAt: expect.any(String),
      },
      unreadCount: 1,
      status: 'open',
      snoozedUntil: null,
      assignee: null,
      lastInboundAt: inbox.data[0]!.lastMessage.createdAt,
      resolvedAt: null,
      windowExpiresAt: new Date(Date.parse(inbox.data[0]!.lastMessage.createdAt) + 24 * 3_600_000).toISOString(),
    });
  });

  test('concurrent inbound messages to one conversation: one contact, an exact unread count', async ({
    server,
    tenant,
    chat,
    receive,
  }) => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => receive('15550005555', `Hello ${i}`, `wamid.RACE${i}`)),
    );
    expect(results.every((result) => result.recorded)).toBe(true);
    const [contacts] = await sql(
      server.databaseUrl,
      `select count(*)::int as n from contacts where channel_id = $1 and phone = '15550005555'`,
      [tenant.channelId],
    );
    expect(contacts!.n).toBe(1);
    const conversation = (await chat.conversations.list({ unread: true })).data.find((c) => c.phone === '15550005555');
    expect(conversation!.unreadCount).toBe(20);
    const history = await chat.messages.list({ phone: '15550005555', limit: 200 });
    expect(history.pagination.total).toBe(20);
    expect(conversation!.lastMessage.msgid).toBe(history.data[0]!.msgid);

    await chat.message.read({ msgid: 'wamid.RACE0' });
    const readAt = history.data.find((m) => m.msgid === 'wamid.RACE0')!.createdAt;
    const afterRead = (await chat.conversations.list({})).data.find((c) => c.phone === '15550005555')!;
    expect(afterRead.unreadCount).toBe(history.data.filter((m) => m.createdAt > readAt).length);
    const [unread] = await sql(
      server.databaseUrl,
      `select count(*)::int as n from messages where "from" = '15550005555' and status <> 'read'`,
    );
    expect(afterRead.unreadCount).toBe(unread!.n);
  });

  test('one statement’s messages keep the inbox exact; one in the outbox joins once sent', async ({
    server,
    tenant,
    chat,
    receive,
  }) => {
    await receive('15550006001', 'Already talking');
    const totals = async () => ({
      all: (await chat.conversations.list({ limit: 1 })).pagination.total,
      unread: (await chat.conversations.list({ unread: true, limit: 1 })).pagination.total,
      open: (await chat.conversations.list({ status: 'open', limit: 1 })).pagination.total,
    });
    const before = await totals();
    const contacts = await sql<{ id: string; phone: string }>(
      server.databaseUrl,
      `insert into contacts (channel_id, name, phone) values ($1, 'Bulk new', '15550006002'),
         ($1, 'Bulk quiet', '15550006003'), ($1, 'Bulk later', '15550006004') returning id, phone`,
      [tenant.channelId],
    );
    const id = (phone: string) => contacts.find((c) => c.phone === phone)?.id;
    const contactOf = async (phone: string) =>
      (
        await sql<{ id: string }>(server.databaseUrl, 'select id from contacts where channel_id = $1 and phone = $2', [
          tenant.channelId,
          phone,
        ])
      )[0]!.id;
    // Two unread from a new contact (the later one its last), one sent to another, one more from an existing one, and
    // one waiting in the outbox, which joins its conversation only once it is sent.
    await sql(
      server.databaseUrl,
      `insert into messages (channel_id, msgid, direction, type, status, "from", "to", contact_id, body, provider,
                             created_at)
       select $1, v.msgid, v.direction, 'text', v.status, v.sender, v.recipient, v.contact_id::uuid, v.body, 'sandbox',
              now() - v.ago * interval '1 second'
         from (values ('bulk.1', 'inbound', 'delivered', '15550006002', null, $2, 'First', 20),
                      ('bulk.2', 'inbound', 'delivered', '15550006002', null, $2, 'Second', 10),
                      ('bulk.3', 'outbound', 'accepted', null, '15550006003', $3, 'Hello', 5),
                      ('bulk.5', 'outbound', 'queued', null, '15550006004', $5, 'Soon', 3),
                      ('bulk.4', 'inbound', 'delivered', '15550006001', null, $4, 'Again', 0))
              as v(msgid, direction, status, sender, recipient, contact_id, body, ago)`,
      [tenant.channelId, id('15550006002'), id('15550006003'), await contactOf('15550006001'), id('15550006004')],
    );
    expect(await totals()).toEqual({ all: before.all + 2, unread: before.unread + 1, open: before.open + 2 });
    const inbox = (await chat.conversations.list({ limit: 200 })).data;
    const of = (phone: string) => inbox.find((conversation) => conversation.phone === phone)!;
    expect(of('15550006002')).toMatchObject({
      name: 'Bulk new',
      unreadCount: 2,
      lastMessage: { msgid: 'bulk.2', direction: 'inbound', type: 'text', text: 'Second' },
      status: 'open',
    });
    expect(of('15550006003')).toMatchObject({
      unreadCount: 0,
      lastMessage: { msgid: 'bulk.3', direction: 'outbound', text: 'Hello' },
      windowExpiresAt: null,
    });
    expect(of('15550006001')).toMatchObject({ unreadCount: 2, lastMessage: { msgid: 'bulk.4', text: 'Again' } });
    expect(inbox.some((conversation) => conversation.phone === '15550006004')).toBe(false);
    await sql(server.databaseUrl, `update messages set status = 'accepted' where msgid = 'bulk.5'`);
    expect((await totals()).all).toBe(before.all + 3);
    const sent = (await chat.conversations.list({ limit: 200 })).data.find((c) => c.phone === '15550006004');
    expect(sent).toMatchObject({
      name: 'Bulk later',
      unreadCount: 0,
      lastMessage: { msgid: 'bulk.5', direction: 'outbound', text: 'Soon' },
    });
    // An older message recorded later (a late redelivery) counts as unread but is not the conversation's newest.
    await sql(
      server.databaseUrl,
      `insert into messages (channel_id, msgid, direction, type, status, "from", contact_id, body, provider, created_at)
       values ($1, 'bulk.late', 'inbound', 'text', 'delivered', '15550006002', $2, 'Late', 'sandbox',
               now() - interval '1 hour')`,
      [tenant.channelId, id('15550006002')],
    );
    const late = (await chat.conversations.list({ limit: 200 })).data.find((c) => c.phone === '15550006002');
    expect(late).toMatchObject({ unreadCount: 3, lastMessage: { msgid: 'bulk.2', text: 'Second' } });
  });

  test('a contact renamed is renamed in its conversation', async ({ server, tenant, chat, receive }) => {
    await receive('15550006101', 'Hi there');
    const contacts = server.client(tenant.key).workspace.contacts;
    await contacts.manage({ phone: '15550006101', name: 'Grace Hopper' });
    const listed = (await chat.conversations.list({ limit: 200 })).data.find((c) => c.phone === '15550006101');
    expect(listed).toMatchObject({ name: 'Grace Hopper', lastMessage: { text: 'Hi there' } });
    await sql(server.databaseUrl, `update contacts set name = 'G. Hopper' where phone = '15550006101'`);
    const renamed = (await chat.conversations.list({ limit: 200 })).data.find((c) => c.phone === '15550006101');
    expect(renamed!.name).toBe('G. Hopper');
  });

  test('the inbox: newest activity first, unread filter, a null window for a contact who never wrote', async ({
    server,
    tenant,
    chat,
    receive,
  }) => {
    await chat.templates.send({ to: '15550006666', templateName: 'order_update', variables: 'Neo,A-1' });
    const inbox = await chat.conversations.list({});
    expect(inbox.data[0]).toMatchObject({
      phone: '15550006666',
      // Named by the phone: an outbound message to a new number creates its contact.
      name: '15550006666',
      lastMessage: { direction: 'outbound', type: 'template', text: null },
      unreadCount: 0,
      windowExpiresAt: null,
    });
    const activity = inbox.data.map((c) => c.lastMessage.createdAt);
    expect(activity).toEqual([...activity].sort().reverse());
    expect(inbox.pagination.total).toBe(inbox.data.length);

    await receive('15550006666', 'What is A-1?');
    const unread = await chat.conversations.list({ unread: true });
    expect(unread.data[0]).toMatchObject({ phone: '15550006666', unreadCount: 1 });
    expect(unread.data.every((c) => c.unreadCount > 0)).toBe(true);
    expect(unread.data.some((c) => c.phone === '15550000001')).toBe(true);

    expect(unread.pagination.total).toBe(unread.data.length);
    const paged = await chat.conversations.list({ page: 2, limit: 1 });
    expect(paged.data).toEqual([inbox.data[1]]);
    expect(paged.pagination).toEqual({
      page: 2,
      limit: 1,
      total: inbox.pagination.total + 0,
      pages: inbox.pagination.total,
    });

    // A contact's deletion takes its conversation, and the counts, with it.
    await server.client(tenant.key).workspace.contacts.delete({ contactId: inbox.data[0]!.contactId });
    expect((await chat.conversations.list({})).pagination.total).toBe(inbox.pagination.total - 1);
    expect((await chat.conversations.list({ unread: true })).pagination.total).toBe(unread.pagination.total - 1);
  });

  test('the history: newest first, by contact or phone or direction, paginated', async ({ tenant, chat, receive }) => {
    await receive('15550007777', 'one', 'wamid.H1');
    await receive('15550007777', 'two', 'wamid.H2');
    const reply = await chat.message.send({ to: '15550007777', text: 'three', replyTo: 'wamid.H2' });
    const all = await chat.messages.list({ phone: '+1 555 000 7777' });
    expect(all.data.map((m) => m.text)).toEqual(['three', 'two', 'one']);
    expect(all.data[0]).toEqual({
      msgid: reply.data.msgid,
      direction: 'outbound',
      type: 'text',
      status: expect.any(String),
      contactId: all.data[1]!.contactId,
      from: null,
      to: '15550007777',
      text: 'three',
      templateName: null,
      media: null,
      replyTo: 'wamid.H2',
      interactive: null,
      reaction: null,
      location: null,
      automationId: null,
      broadcastId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(all.data[1]).toMatchObject({ msgid: 'wamid.H2', direction: 'inbound', from: '15550007777', to: null });
    const byId = await chat.messages.list({ contactId: all.data[0]!.contactId!, direction: 'inbound', limit: 1 });
    expect(byId.data.map((m) => m.msgid)).toEqual(['wamid.H2']);
    expect(byId.pagination).toEqual({ page: 1, limit: 1, total: 2, pages: 2 });
    const channel = await chat.messages.list({ channelId: tenant.channelId, limit: 200 });
    expect(channel.data.map((m) => m.msgid)).toContain('wamid.MARS1');
    expect(channel.pagination.total).toBe(channel.data.length);
  });

  test('refusals: unknown contact 404, both lookups 400, another tenant’s channel, contact or msgid 403', async ({
    server,
    acme,
    chat,
  }) => {
    await expectError(chat.messages.list({ phone: '15559999999' }), 404, 'contact_not_found');
    await expectError(
      chat.messages.list({ contactId: '00000000-0000-4000-8000-000000000000' }),
      404,
      'contact_not_found',
    );
    await expectInvalid(
      chat.messages.list({ phone: '15550000001', contactId: acme.ids.contacts!.ada! }),
      'phone',
      'cannot be combined',
    );
    await expectForbidden(chat.messages.list({ contactId: acme.ids.contacts!.ada! }));
    await expectForbidden(chat.messages.list({ channelId: acme.mainChannelId }));
    await expectForbidden(chat.conversations.list({ channelId: acme.mainChannelId }));
    const unknown = await expectForbidden(chat.message.read({ msgid: 'wamid.NOPE' }));
    const foreign = await expectForbidden(chat.message.read({ msgid: acme.inboundMsgid }));
    expect(foreign.message).toBe(unknown.message);
    const [row] = await sql(server.databaseUrl, 'select status from messages where msgid = $1', [acme.inboundMsgid]);
    expect(row!.status).toBe('delivered');
  });
});
