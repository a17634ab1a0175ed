import { expect } from 'vitest';
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
