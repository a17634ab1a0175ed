import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectForbiddenForOtherTenant } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { CHANNEL_SCOPED } from './endpoints.js';

const test = base.extend(
  'acmeState',
  ({ server, acme }) =>
    () =>
      sql(
        server.databaseUrl,
        `select (select json_agg(l order by l.name) from labels l where l.channel_id = $1) as labels,
            (select count(*)::int from messages m where m.channel_id = $1) as messages`,
        [acme.mainChannelId],
      ),
);

/** A second platform's keys never see or change the first platform's workspace data. */
describe('tenant isolation of the workspace API', () => {
  test.for(CHANNEL_SCOPED)(
    '$name: 403 for the other tenant’s channelId, nothing read or written',
    async (endpoint, { server, acme, globex, acmeState }) => {
      const before = await acmeState();
      for (const key of [globex.ownerKey, globex.memberKey]) {
        await expectForbiddenForOtherTenant(
          endpoint.call(server.client(key), { ...endpoint.params(globex), channelId: acme.mainChannelId }),
        );
      }
      expect(await acmeState()).toEqual(before);
    },
  );

  test.for(CHANNEL_SCOPED)(
    '$name: the other tenant’s own call only touches its own channel',
    async (endpoint, { server, acme, globex, acmeState }) => {
      const before = await acmeState();
      const reply = (await endpoint.call(server.client(globex.memberKey), endpoint.params(globex))) as {
        data: unknown;
      };
      const text = JSON.stringify(reply.data);
      for (const id of [
        acme.mainChannelId,
        ...Object.values(acme.ids.contacts!),
        ...Object.values(acme.ids.templates!),
      ]) {
        expect(text).not.toContain(id);
      }
      expect(await acmeState()).toEqual(before);
    },
  );

  test('chat/message/status: the other tenant’s msgid gets the very reply an unknown msgid gets', async ({
    server,
    acme,
    globex,
  }) => {
    const status = (apiKey: string, msgid: string) => server.client(apiKey).workspace.chat.message.status({ msgid });
    const foreign = await expectForbiddenForOtherTenant(status(globex.ownerKey, acme.msgid));
    const unknown = await expectForbiddenForOtherTenant(status(globex.ownerKey, 'wamid.does-not-exist'));
    expect(foreign.message).toBe(unknown.message);
    expect((await status(acme.memberKey, acme.msgid)).data.msgid).toBe(acme.msgid);
  });

  test('labels/manage of a same-named label in another tenant leaves the first tenant’s label alone', async ({
    server,
    globex,
    acmeState,
  }) => {
    const before = await acmeState();
    const reply = await server
      .client(globex.memberKey)
      .workspace.labels.manage({ name: 'vip', description: 'Globex VIPs', color: '#000000' });
    expect(reply.data.channelId).toBe(globex.mainChannelId);
    expect(await acmeState()).toEqual(before);
  });
});
