import { EVENT_STREAM_MAX_PER_USER, EVENT_STREAM_PING_SECONDS } from '@switchboard/contract';
import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { bodyOf, customerWrites, streamTracker } from '../helpers/event-stream.js';
import { createTenant } from '../helpers/fixtures.js';
import { test } from '../helpers/test.js';

const streams = streamTracker();
afterAll(async () => {
  streams.closeAll();
});
const open = streams.open;
const dataOf = bodyOf;

describe('GET events/stream: tenancy, the stream limit and revoked keys', () => {
  test('shows only the key’s channels, the channel and types asked for; another channel is 403', async ({
    server,
    acme,
    globex,
  }) => {
    const member = await open(server.baseUrl, acme.memberKey);
    const second = await open(server.baseUrl, acme.ownerKey, { query: { channelId: acme.secondChannelId } });
    const statusOnly = await open(server.baseUrl, acme.ownerKey, { query: { types: 'message.status.updated' } });
    const other = await open(server.baseUrl, globex.ownerKey);
    await customerWrites(server, acme.secondChannelId, 'second channel');
    await customerWrites(server, acme.mainChannelId, 'main channel');
    expect((await member.events(1)).map((m) => dataOf(m).data.text)).toEqual(['main channel']);
    expect((await second.events(1)).map((m) => dataOf(m).data.text)).toEqual(['second channel']);
    // A later event on Globex's own channel proves its stream was live and skipped Acme's.
    await customerWrites(server, globex.mainChannelId, 'globex');
    expect((await other.events(1)).map((m) => dataOf(m).data.text)).toEqual(['globex']);
    expect(member.messages.filter((m) => m.event)).toHaveLength(1);
    expect(statusOnly.messages.filter((m) => m.event)).toHaveLength(0);

    const refused = await open(server.baseUrl, acme.memberKey, { query: { channelId: acme.secondChannelId } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: 'forbidden' });
    const bad = await open(server.baseUrl, acme.memberKey, { query: { types: 'message.received,nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body!.message).toMatch(/^types: must be a comma-separated list of event types/);
    const keyInUrl = await fetch(`${server.baseUrl}/api/workspace/v1/events/stream?apiKey=${acme.memberKey}`);
    expect(keyInUrl.status).toBe(401);
  }, 60_000);

  test(`at most ${EVENT_STREAM_MAX_PER_USER} streams per API user: the next is 429 in the envelope`, async ({
    server,
    globex,
  }) => {
    const held = await Promise.all(
      Array.from({ length: EVENT_STREAM_MAX_PER_USER }, () => open(server.baseUrl, globex.memberKey)),
    );
    expect(held.map((stream) => stream.status)).toEqual(held.map(() => 200));
    const refused = await open(server.baseUrl, globex.memberKey);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: 'rate_limited' });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    held[0]!.close();
    await held[0]!.ended;
    await expect
      .poll(async () => {
        const again = await open(server.baseUrl, globex.memberKey);
        again.close();
        return again.status;
      })
      .toBe(200);
    for (const stream of held) stream.close();
  });

  test('a revoked key’s stream ends at its next ping, within 15 s; a new one is 401', async ({ server }) => {
    const initech = await createTenant(server, 'Initech');
    const stream = await open(server.baseUrl, initech.memberKey);
    expect(stream.status).toBe(200);
    await sql(server.databaseUrl, `update api_keys set revoked_at = now() where user_id = $1`, [initech.memberId]);
    const started = Date.now();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(EVENT_STREAM_PING_SECONDS * 1000 + 2000);
    expect(stream.pings).toBe(1);
    expect((await open(server.baseUrl, initech.memberKey)).status).toBe(401);
  });
});
