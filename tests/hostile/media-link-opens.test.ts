import { createLogger } from '@switchboard/server';
import { expect } from 'vitest';
import { mediaLinkRetention } from '../../apps/server/src/modules/media/media-link-retention.js';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';

/** A media link opens at most 30 times (issue #31): each open fetches the file with the tenant's credentials. */
test(
  'a media link opens 30 times, then is refused naming the limit',
  { timeout: 120_000 },
  async ({ server, acme }) => {
    const { data } = await server.client(acme.memberKey).workspace.chat.media.get({ msgid: acme.mediaMsgid });
    // The link starts with PUBLIC_URL; the server under test listens on a port of its own.
    const local = (url: string) => `${server.baseUrl}${new URL(url).pathname}`;
    const open = () =>
      fetch(local(data.url)).then(async (reply) => ({ status: reply.status, body: await reply.text() }));
    for (let n = 1; n <= 30; n++) expect((await open()).status, `open ${n}`).toBe(200);
    const refused = await open();
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ success: false, error: 'invalid_request' });
    expect(JSON.parse(refused.body).message).toMatch(/opened 30 times/);
    // A new link for the same file opens again.
    const fresh = await server.client(acme.memberKey).workspace.chat.media.get({ msgid: acme.mediaMsgid });
    expect((await fetch(local(fresh.data.url))).status).toBe(200);
  },
);

test('the open counts of expired links are swept, the live ones kept', async ({ server, acme }) => {
  const get = () => server.client(acme.memberKey).workspace.chat.media.get({ msgid: acme.mediaMsgid });
  const [expired, live] = [(await get()).data.url, (await get()).data.url];
  const signature = (url: string) => url.split('.').at(-1)!;
  await sql(
    server.databaseUrl,
    `update media_link_opens set expires_at = now() - interval '1 second' where link = $1`,
    [signature(expired)],
  );
  const links = () =>
    sql(server.databaseUrl, 'select link from media_link_opens where link = any($1)', [
      [signature(expired), signature(live)],
    ]);
  expect(await links()).toHaveLength(2);
  await mediaLinkRetention.run({ em: server.database.orm.em, jobs: server.jobs, logger: createLogger('silent') });
  expect((await links()).map((row) => row.link)).toEqual([signature(live)]);
});
