import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { runCli } from '../helpers/processes.js';
import { test as base } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver } from '../helpers/receivers.js';
import { eventsOf } from '../whatsapp-inbound/inbound-fixture.js';

const secret = newWebhookSecret();
const hooks = await startWebhookReceiver(secret);
afterAll(() => hooks.close());

const test = base.extend('tenant', { scope: 'file' }, async ({ server }) => {
  const file = tenantSeed('Cli');
  file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.received'] }];
  const ids = await server.seed(file);
  return { key: ids.users!.member!.apiKey!, channelId: ids.channels!.main! };
});
test.override('serverEnv', { ALLOW_HTTP_WEBHOOKS: 'true' });

describe('pnpm cli sandbox receive', { timeout: 120_000 }, () => {
  test('records a customer’s message like WhatsApp inbound; the running server delivers message.received', async ({
    server,
    tenant,
  }) => {
    const env = { DATABASE_URL: server.databaseUrl };
    const args = ['sandbox', 'receive', '--channel', tenant.channelId, '--from', '+1 555 000 8888', '--text', 'Hi!'];
    const first = await runCli([...args, '--msgid', 'wamid.CLI1'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ msgid: 'wamid.CLI1' });
    const again = await runCli([...args, '--msgid', 'wamid.CLI1'], env);
    expect(JSON.parse(again.stdout)).toEqual({ msgid: 'wamid.CLI1' });

    await expect
      .poll(() => eventsOf(hooks.received, 'message.received').length, { timeout: 20_000, interval: 100 })
      .toBe(1);
    await server.untilIdle();
    expect(eventsOf<{ msgid: string; text: string }>(hooks.received, 'message.received')[0]!.data).toMatchObject({
      msgid: 'wamid.CLI1',
      text: 'Hi!',
      contact: { name: '15550008888', phone: '15550008888' },
    });
    const [row] = await sql(server.databaseUrl, `select count(*)::int as n from messages where "from" = '15550008888'`);
    expect(row!.n).toBe(1);
    const inbox = await server.client(tenant.key).workspace.chat.conversations.list({ unread: true });
    expect(inbox.data[0]).toMatchObject({ phone: '15550008888', unreadCount: 1 });

    const generated = await runCli(args, env);
    expect(JSON.parse(generated.stdout).msgid).toMatch(/^wamid\./);
  });

  test('plays a tap on a button, a list pick, a reaction and a location, with the ids of the message sent', async ({
    server,
    tenant,
  }) => {
    const env = { DATABASE_URL: server.databaseUrl };
    const customer = ['sandbox', 'receive', '--channel', tenant.channelId, '--from', '15550008877'];
    const hello = await runCli([...customer, '--text', 'Hello'], env);
    expect(hello.code, hello.stderr).toBe(0);
    const chat = server.client(tenant.key).workspace.chat;
    const sent = await chat.message.send({
      channelId: tenant.channelId,
      to: '15550008877',
      type: 'interactive',
      interactive: { kind: 'buttons', body: 'Your order?', buttons: [{ id: 'track_order', title: 'Track order' }] },
    });
    const tap = await runCli([...customer, '--button-reply', 'track_order', '--reply-to', sent.data.msgid], env);
    expect(tap.code, tap.stderr).toBe(0);
    const react = await runCli([...customer, '--reaction', '❤️', '--reply-to', sent.data.msgid], env);
    const place = await runCli([...customer, '--location', '52.37,4.89'], env);
    const wrong = await runCli([...customer, '--button-reply', 'nope', '--reply-to', sent.data.msgid], env);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/buttonReply: is not the id of a reply button .*track_order/);
    const badPlace = await runCli([...customer, '--location', '95,4'], env);
    expect(badPlace.stderr).toMatch(/--location must have a latitude in -90\.\.90/);

    const history = (await chat.messages.list({ channelId: tenant.channelId, phone: '15550008877' })).data;
    const byMsgid = new Map(history.map((message) => [message.msgid, message]));
    expect(byMsgid.get(JSON.parse(tap.stdout).msgid)).toMatchObject({
      type: 'interactive',
      text: 'Track order',
      replyTo: sent.data.msgid,
      interactive: { kind: 'button_reply', id: 'track_order', title: 'Track order' },
    });
    expect(byMsgid.get(JSON.parse(react.stdout).msgid)).toMatchObject({
      type: 'reaction',
      reaction: { msgid: sent.data.msgid, emoji: '❤️' },
    });
    expect(byMsgid.get(JSON.parse(place.stdout).msgid)).toMatchObject({
      type: 'location',
      text: '52.37,4.89',
      location: { latitude: 52.37, longitude: 4.89 },
    });
  });

  test('refuses what is not a sandbox channel or a phone', async ({ server, tenant }) => {
    const env = { DATABASE_URL: server.databaseUrl };
    const bad = await runCli(['sandbox', 'receive', '--channel', 'x', '--from', '15550008888', '--text', 'Hi'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--channel must be a channel id/);
    const phone = await runCli(
      ['sandbox', 'receive', '--channel', tenant.channelId, '--from', '12', '--text', 'x'],
      env,
    );
    expect(phone.stderr).toMatch(/--from must be 8 to 15 digits/);
  });
});
