import { describe, expect, vi } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { receiveText } from '../automations/automations-fixture.js';

/** The channel budget of this file's server: low enough that pacing is measurable in a few seconds. */
const RATE = 20;

const test = base.extend('status', ({ server, acme }) => async (msgid: string, apiKey = acme.memberKey) => {
  const reply = await server.client(apiKey).workspace.chat.message.status({ msgid });
  return reply.data.status;
});
test.override('serverEnv', {
  SEND_RATE_PER_CHANNEL: String(RATE),
  SANDBOX_SENT_AFTER_MS: '600000',
  SANDBOX_DELIVERED_AFTER_MS: '600000',
  // contact.status.changed is read from its queued delivery; the receiver is absent, its retry an hour away.
  ALLOW_HTTP_WEBHOOKS: 'true',
  DELIVERY_RETRY_SCHEDULE: '3600',
});

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

describe('the send pipeline', () => {
  test.beforeAll(async ({ server, acme }) => {
    await sql(
      server.databaseUrl,
      `insert into templates (channel_id, name, category, language, status, body, variable_count) values
        ($1, 'sale', 'MARKETING', 'en_US', 'approved', 'Sale {{1}}', 1)`,
      [acme.mainChannelId],
    );
  });

  test(
    'a scheduled send is listed as scheduled, then sent through the pipeline once its time comes',
    {
      timeout: 60_000,
    },
    async ({ server, acme, status }) => {
      const client = server.client(acme.memberKey);
      const at = inSeconds(8);
      const reply = await client.workspace.chat.templates.send({
        channelId: acme.mainChannelId,
        to: '15550000011',
        templateName: 'order_update',
        variables: 'Ada,A-1',
        scheduledAt: at,
      });
      expect(reply.data).toMatchObject({ status: 'scheduled', scheduledAt: new Date(at).toISOString() });
      expect(reply.data.msgid).toMatch(/^sbm\.[0-9a-f]{32}$/);
      expect(await status(reply.data.msgid)).toBe('scheduled');
      const listed = await client.workspace.chat.messages.list({ channelId: acme.mainChannelId });
      expect(listed.data.find((m) => m.msgid === reply.data.msgid)?.status).toBe('scheduled');
      // Scheduled work is `later` for the idle signal until its time: the signal here is its status.
      await vi.waitFor(async () => expect(await status(reply.data.msgid)).toBe('accepted'), {
        timeout: 20_000,
        interval: 200,
      });
      const [row] = await sql<{ late: number; provider_message_id: string }>(
        server.databaseUrl,
        `select extract(epoch from updated_at - due_at)::float8 as late, provider_message_id from messages
        where msgid = $1`,
        [reply.data.msgid],
      );
      expect(row!.late).toBeLessThan(5);
      expect(row!.provider_message_id).toMatch(/^wamid\./);
    },
  );

  test('cancel stops a scheduled message; anything else is 400, another tenant’s msgid 403', async ({
    server,
    acme,
    globex,
    status,
  }) => {
    const client = server.client(acme.memberKey);
    const { data } = await client.workspace.chat.templates.send({
      channelId: acme.mainChannelId,
      to: '15550000012',
      templateName: 'order_update',
      variables: 'Ada,A-2',
      scheduledAt: inSeconds(3600),
    });
    await expectError(
      server.client(globex.memberKey).workspace.chat.message.cancel({ msgid: data.msgid }),
      403,
      'forbidden',
    );
    const cancelled = await client.workspace.chat.message.cancel({ msgid: data.msgid });
    expect(cancelled.data).toEqual({ msgid: data.msgid, status: 'cancelled' });
    expect(await status(data.msgid)).toBe('cancelled');
    await expectError(client.workspace.chat.message.cancel({ msgid: data.msgid }), 400, 'message_not_scheduled');
    await expectError(client.workspace.chat.message.cancel({ msgid: acme.msgid }), 400, 'message_not_scheduled');
    expect((await server.untilIdle()).later).toBe(0);
  });

  test('a scheduledAt in the past or beyond 30 days is 400 naming the field; nothing is stored', async ({
    server,
    acme,
  }) => {
    const client = server.client(acme.memberKey);
    const send = (scheduledAt: string) =>
      client.workspace.chat.templates.send({
        channelId: acme.mainChannelId,
        to: '15550000013',
        templateName: 'order_update',
        variables: 'Ada,A-3',
        scheduledAt,
      });
    await expectError(send(inSeconds(-3600)), 400, 'invalid_request', /scheduledAt/);
    await expectError(send(inSeconds(31 * 86_400)), 400, 'invalid_request', /scheduledAt/);
    await expectError(send('tomorrow'), 400, 'invalid_request', /scheduledAt/);
    const rows = await sql(server.databaseUrl, `select 1 from messages where "to" = '15550000013'`);
    expect(rows).toHaveLength(0);
  });

  test(
    'keeps the channel budget: N sends due at once take N / rate seconds (± 15 %)',
    { timeout: 120_000 },
    async ({ server, acme }) => {
      const count = 80;
      // All due at one time, far enough ahead that every send is recorded before it (checked below).
      const at = inSeconds(25);
      const client = server.client(acme.memberKey);
      const send = (i: number) =>
        client.workspace.chat.templates.send({
          channelId: acme.mainChannelId,
          to: `1555001${String(i).padStart(4, '0')}`,
          templateName: 'order_update',
          variables: `Ada,P-${i}`,
          scheduledAt: at,
        });
      for (let i = 0; i < count; i += 20) await Promise.all(Array.from({ length: 20 }, (_, j) => send(i + j)));
      const pacing = `from messages where template_name = 'order_update' and variables->>1 like 'P-%'`;
      const [created] = await sql<{ early: boolean }>(
        server.databaseUrl,
        `select max(created_at) < $1::timestamptz as early ${pacing}`,
        [at],
      );
      expect(created!.early).toBe(true);
      await vi.waitFor(
        async () => {
          const [left] = await sql<{ n: number }>(
            server.databaseUrl,
            `select count(*)::int as n ${pacing} and status <> 'accepted'`,
          );
          expect(left!.n).toBe(0);
        },
        { timeout: 60_000, interval: 250 },
      );
      const [span] = await sql<{ seconds: number; sent: number }>(
        server.databaseUrl,
        `select extract(epoch from max(updated_at) - $1::timestamptz)::float8 as seconds, count(*)::int as sent
        ${pacing} and status = 'accepted'`,
        [at],
      );
      expect(span!.sent).toBe(count);
      expect(span!.seconds).toBeGreaterThan((count / RATE) * 0.85);
      expect(span!.seconds).toBeLessThan((count / RATE) * 1.15);
    },
  );

  test('STOP unsubscribes (MARKETING then refused, UTILITY still goes), START subscribes again', async ({
    server,
    acme,
  }) => {
    const client = server.client(acme.memberKey);
    await server.client(acme.ownerKey).platform.webhooks.manage({
      platformId: acme.platformId,
      url: 'http://127.0.0.1:9/hook',
      events: ['contact.status.changed'],
    });
    const phone = '15550000021';
    const { contactId } = await receiveText(server, acme.mainChannelId, phone, ' s t o p ');
    await server.untilIdle();
    const contact = await client.workspace.contacts.get({ channelId: acme.mainChannelId, contactId });
    expect(contact.data.status).toBe('unsubscribed');
    const sale = { channelId: acme.mainChannelId, to: phone, templateName: 'sale', variables: '10%' };
    await expectError(client.workspace.chat.templates.send(sale), 400, 'contact_unsubscribed');
    const utility = await client.workspace.chat.templates.send({
      channelId: acme.mainChannelId,
      to: phone,
      templateName: 'order_update',
      variables: 'Ada,A-9',
    });
    expect(utility.data.status).toBe('accepted');
    await receiveText(server, acme.mainChannelId, phone, 'Start');
    await server.untilIdle();
    expect((await client.workspace.contacts.get({ channelId: acme.mainChannelId, contactId })).data.status).toBe(
      'active',
    );
    expect((await client.workspace.chat.templates.send(sale)).data.status).toBe('accepted');
    await client.workspace.contacts.manage({ channelId: acme.mainChannelId, phone, status: 'blocked' });
    await expectError(client.workspace.chat.templates.send(sale), 400, 'contact_blocked');
    const sends = await sql(server.databaseUrl, `select 1 from messages where "to" = $1 and template_name = 'sale'`, [
      phone,
    ]);
    expect(sends).toHaveLength(1);
    const events = await sql<{ previous: string; now: string }>(
      server.databaseUrl,
      `select payload->'data'->>'previousStatus' as previous, payload->'data'->'contact'->>'status' as now
        from webhook_deliveries where payload->>'type' = 'contact.status.changed'
          and payload->'data'->'contact'->>'phone' = $1 order by created_at`,
      [phone],
    );
    expect(events.map((e) => `${e.previous}>${e.now}`)).toEqual([
      'active>unsubscribed',
      'unsubscribed>active',
      'active>blocked',
    ]);
  });

  test('a dispatcher that died mid-send leaves its messages failed (outcome_unknown), never sent again', async ({
    server,
    acme,
    status,
  }) => {
    const client = server.client(acme.memberKey);
    const { data } = await client.workspace.chat.templates.send({
      channelId: acme.mainChannelId,
      to: '15550000031',
      templateName: 'order_update',
      variables: 'Ada,A-4',
      scheduledAt: inSeconds(3600),
    });
    // What a dispatcher killed between its claim and its record leaves behind: `sending`, by nobody alive.
    await sql(
      server.databaseUrl,
      `update messages set status = 'sending', sending_by = gen_random_uuid() where msgid = $1`,
      [data.msgid],
    );
    await server.untilIdle(30_000);
    expect(await status(data.msgid)).toBe('failed');
    const [row] = await sql<{ reason: string; provider_message_id: string | null }>(
      server.databaseUrl,
      'select reason, provider_message_id from messages where msgid = $1',
      [data.msgid],
    );
    expect(row).toEqual({ reason: 'outcome_unknown', provider_message_id: null });
  });
});
