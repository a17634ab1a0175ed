import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, statusSink } from '@switchboard/server';
import { sql } from '../helpers/database.js';
import { expectForbidden, expectInvalid } from '../helpers/expect.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const NOT_ACCESSIBLE = /^No message with this msgid in the channels this key may use\.$/;
/** A quick sandbox: `sent` after 400 ms, `delivered` after 1 s. */
const SANDBOX = { SANDBOX_SENT_AFTER_MS: '400', SANDBOX_DELIVERED_AFTER_MS: '1000' };

describe('workspace chat/message/status', () => {
  let server: TestServer;
  let acme: Tenant;
  const status = (msgid: string, apiKey = acme.memberKey) => server.client(apiKey).workspace.chat.message.status({ msgid });
  const sendOrder = async (apiKey = acme.memberKey, on = server) =>
    (await on.client(apiKey).workspace.chat.templates.send({ to: '15550000001', templateName: 'order_update', variables: 'Ada,A-1' })).data.msgid;

  beforeAll(async () => {
    server = await startTestServer(SANDBOX);
    acme = await createTenant(server, 'Acme');
  });
  afterAll(() => server?.close());

  it('returns a message’s status, direction and type', async () => {
    expect(await status(acme.msgid)).toEqual({ success: true, data: { msgid: acme.msgid, status: 'delivered', direction: 'outbound', type: 'text' } });
  });

  it('shows the sandbox moving a sent template accepted → sent → delivered', async () => {
    const msgid = await sendOrder();
    const seen = new Set([(await status(msgid)).data.status]);
    await expect
      .poll(async () => {
        const { data } = await status(msgid);
        seen.add(data.status);
        return data;
      }, { timeout: 5000, interval: 50 })
      .toEqual({ msgid, status: 'delivered', direction: 'outbound', type: 'template' });
    expect([...seen]).toEqual(['accepted', 'sent', 'delivered']);
  });

  it('never moves a status backwards when reports arrive late or twice', async () => {
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

  it('same 403 for an unknown msgid and for one in a channel the key may not use', async () => {
    const inSecond = (await server.client(acme.ownerKey).workspace.chat.templates.send({ channelId: acme.secondChannelId, to: '15550000009', templateName: 'follow_up', variables: 'Li' })).data.msgid;
    expect((await status(inSecond, acme.ownerKey)).data.status).toBe('accepted');
    for (const [msgid, apiKey] of [[inSecond, acme.memberKey], ['wamid.unknown', acme.memberKey], [acme.msgid, acme.lonelyKey]] as const) {
      await expectForbidden(status(msgid, apiKey), NOT_ACCESSIBLE);
    }
  });

  it('400 for a missing, empty or overlong msgid', async () => {
    await expectInvalid(server.client(acme.memberKey).workspace.chat.message.status({} as never), 'msgid', 'is required');
    await expectInvalid(status(''), 'msgid', 'must not be empty');
    await expectInvalid(status('w'.repeat(201)), 'msgid', 'at most 200');
    const get = await server.http.get('/api/workspace/v1/chat/message/status', { headers: { 'X-API-Key': acme.memberKey } });
    expect(get.status).toBe(400);
    expect(get.data.message).toBe('msgid: is required');
  });

  it('stops the sandbox’s timers when the server closes: no report lands afterwards', async () => {
    const other = await startTestServer({ ...SANDBOX, DATABASE_URL: server.databaseUrl });
    const msgid = await sendOrder(acme.memberKey, other);
    await other.close();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await sql(server.databaseUrl, 'select status from messages where msgid = $1', [msgid])).toEqual([{ status: 'accepted' }]);
  });
});
