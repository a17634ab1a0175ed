import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectForbiddenForOtherTenant } from '../helpers/expect.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHANNEL_SCOPED } from './endpoints.js';

/** A second platform's keys never see or change the first platform's workspace data. */
describe('tenant isolation of the workspace API', () => {
  let server: TestServer;
  let acme: Tenant;
  let globex: Tenant;
  const acmeState = () =>
    sql(
      server.databaseUrl,
      `select (select json_agg(l order by l.name) from labels l where l.channel_id = $1) as labels,
              (select count(*)::int from messages m where m.channel_id = $1) as messages`,
      [acme.mainChannelId],
    );

  beforeAll(async () => {
    server = await startTestServer();
    acme = await createTenant(server, 'Acme');
    globex = await createTenant(server, 'Globex');
  });
  afterAll(() => server?.close());

  it.each(CHANNEL_SCOPED)('$name: 403 for the other tenant’s channelId, nothing read or written', async (endpoint) => {
    const before = await acmeState();
    for (const key of [globex.ownerKey, globex.memberKey]) {
      await expectForbiddenForOtherTenant(endpoint.call(server.client(key), { ...endpoint.params(globex), channelId: acme.mainChannelId }));
    }
    expect(await acmeState()).toEqual(before);
  });

  it.each(CHANNEL_SCOPED)('$name: the other tenant’s own call only touches its own channel', async (endpoint) => {
    const before = await acmeState();
    const reply = (await endpoint.call(server.client(globex.memberKey), endpoint.params(globex))) as { data: unknown };
    const text = JSON.stringify(reply.data);
    for (const id of [acme.mainChannelId, ...Object.values(acme.ids.contacts!), ...Object.values(acme.ids.templates!)]) {
      expect(text).not.toContain(id);
    }
    expect(await acmeState()).toEqual(before);
  });

  it('chat/message/status: the other tenant’s msgid gets the very reply an unknown msgid gets', async () => {
    const status = (apiKey: string, msgid: string) => server.client(apiKey).workspace.chat.message.status({ msgid });
    const foreign = await expectForbiddenForOtherTenant(status(globex.ownerKey, acme.msgid));
    const unknown = await expectForbiddenForOtherTenant(status(globex.ownerKey, 'wamid.does-not-exist'));
    expect(foreign.message).toBe(unknown.message);
    expect((await status(acme.memberKey, acme.msgid)).data.msgid).toBe(acme.msgid);
  });

  it('labels/manage of a same-named label in another tenant leaves the first tenant’s label alone', async () => {
    const before = await acmeState();
    const reply = await server.client(globex.memberKey).workspace.labels.manage({ name: 'vip', description: 'Globex VIPs', color: '#000000' });
    expect(reply.data.channelId).toBe(globex.mainChannelId);
    expect(await acmeState()).toEqual(before);
  });
});
