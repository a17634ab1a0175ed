import { describe, expect } from 'vitest';
import { createLogger, statusSink } from '@switchboard/server';
import { sql } from '../helpers/database.js';
import { expectForbidden, expectInvalid } from '../helpers/expect.js';
import { startTestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';

const NOT_ACCESSIBLE = /^No message with this msgid in the channels this key may use\.$/;
/** A quick sandbox: `sent` after 400 ms, `delivered` after 1 s. */
const SANDBOX = { SANDBOX_SENT_AFTER_MS: '400', SANDBOX_DELIVERED_AFTER_MS: '1000' };

const test = base
  .extend(
    'status',
    ({ server, acme }) =>
      (msgid: string, apiKey = acme.memberKey) =>
        server.client(apiKey).workspace.chat.message.status({ msgid }),
  )
  .extend(
    'sendOrder',
    ({ server, acme }) =>
      async (apiKey = acme.memberKey, on = server) =>
        (
          await on
            .client(apiKey)
            .workspace.chat.templates.send({ to: '15550000001', templateName: 'order_update', variables: 'Ada,A-1' })
        ).data.msgid,
  );
test.override('serverEnv', SANDBOX);

describe('workspace chat/message/status', () => {
  test('returns a message’s status, direction and type', async ({ acme, status }) => {
    expect(await status(acme.msgid)).toEqual({
      success: true,
      data: { msgid: acme.msgid, status: 'delivered', direction: 'outbound', type: 'text' },
    });
  });

  test('shows the sandbox moving a sent template accepted → sent → delivered', async ({ status, sendOrder }) => {
    const msgid = await sendOrder();
    const seen = new Set([(await status(msgid)).data.status]);
    await expect
      .poll(
        async () => {
          const { data } = await status(msgid);
          seen.add(data.status);
          return data;
        },
        { timeout: 5000, interval: 50 },
      )
      .toEqual({ msgid, status: 'delivered', direction: 'outbound', type: 'template' });
    expect([...seen]).toEqual(['accepted', 'sent', 'delivered']);
  });

  test('never moves a status backwards when reports arrive late or twice', async ({ server, status, sendOrder }) => {
    const msgid = await sendOrder();
    await expect.poll(async () => (await status(msgid)).data.status, { timeout: 5000, interval: 50 }).toBe('delivered');
    const report = statusSink(server.database.orm.em, createLogger('silent'));
    const current = async () => (await status(msgid)).data.status;
    await report({ provider: 'sandbox', providerMessageId: msgid, status: 'sent' });
    await report({ provider: 'sandbox', providerMessageId: msgid, status: 'failed' });
    expect(await current()).toBe('delivered');
    await report({ provider: 'other', providerMessageId: msgid, status: 'read' });
    expect(await current()).toBe('delivered');
    await report({ provider: 'sandbox', providerMessageId: msgid, status: 'read' });
    expect(await current()).toBe('read');
    await report({ provider: 'sandbox', providerMessageId: msgid, status: 'delivered' });
    expect(await current()).toBe('read');
  });

  test('same 403 for an unknown msgid and for one in a channel the key may not use', async ({
    server,
    acme,
    status,
  }) => {
    const inSecond = (
      await server.client(acme.ownerKey).workspace.chat.templates.send({
        channelId: acme.secondChannelId,
        to: '15550000009',
        templateName: 'follow_up',
        variables: 'Li',
      })
    ).data.msgid;
    expect((await status(inSecond, acme.ownerKey)).data.status).toBe('accepted');
    for (const [msgid, apiKey] of [
      [inSecond, acme.memberKey],
      ['wamid.unknown', acme.memberKey],
      [acme.msgid, acme.lonelyKey],
    ] as const) {
      await expectForbidden(status(msgid, apiKey), NOT_ACCESSIBLE);
    }
  });

  test('400 for a missing, empty or overlong msgid', async ({ server, acme, status }) => {
    await expectInvalid(
      server.client(acme.memberKey).workspace.chat.message.status({} as never),
      'msgid',
      'is required',
    );
    await expectInvalid(status(''), 'msgid', 'must not be empty');
    await expectInvalid(status('w'.repeat(201)), 'msgid', 'at most 200');
    const get = await server.http.get('/api/workspace/v1/chat/message/status', {
      headers: { 'X-API-Key': acme.memberKey },
    });
    expect(get.status).toBe(400);
    expect(get.data.message).toBe('msgid: is required');
  });

  test('stops the sandbox’s timers when the server closes: no report lands afterwards', async ({
    server,
    acme,
    status,
    sendOrder,
  }) => {
    // Both reports of the other server's message are due at the same time as the control's delivered report, and
    // scheduled before it; its database stays open after it stops serving, so a report that survived would land.
    const other = await startTestServer({
      SANDBOX_SENT_AFTER_MS: SANDBOX.SANDBOX_DELIVERED_AFTER_MS,
      SANDBOX_DELIVERED_AFTER_MS: SANDBOX.SANDBOX_DELIVERED_AFTER_MS,
      JOB_WORKER: 'false',
      DATABASE_URL: server.databaseUrl,
    });
    try {
      const msgid = await sendOrder(acme.memberKey, other);
      await other.stopServing();
      const stored = async () =>
        (await sql(other.databaseUrl, 'select status from messages where msgid = $1', [msgid]))[0]?.status;
      const atStop = await stored();
      // The signal: a message sent after the stop, on the running server, reaches `delivered`. Timers fire in due
      // order, so by then every report the stopped server had scheduled would have fired.
      const control = await sendOrder();
      await expect
        .poll(async () => (await status(control)).data.status, { timeout: 10_000, interval: 50 })
        .toBe('delivered');
      expect(atStop).toBe('accepted');
      expect(await stored()).toBe('accepted');
    } finally {
      await other.close();
    }
  });
});
