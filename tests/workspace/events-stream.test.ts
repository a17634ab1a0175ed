import { EVENT_STREAM_MAX_PER_USER, EVENT_STREAM_PING_SECONDS } from '@switchboard/contract';
import { receiveSandboxMessage } from '@switchboard/server';
import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { openRawStream, type RawStream } from '../helpers/event-stream.js';
import { createTenant, tenantSeed } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';
import { test } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver } from '../platform/receivers.js';

const secret = newWebhookSecret();
const hooks = await startWebhookReceiver(secret);
const streams: RawStream[] = [];
afterAll(async () => {
  for (const stream of streams) stream.close();
  await hooks.close();
});
test.override('serverEnv', { ALLOW_HTTP_WEBHOOKS: 'true' });

let counter = 0;
/** A customer message on the tenant's channel, recorded through `server` (its own transaction and events). */
const receive = (server: TestServer, channelId: string, text = `hello ${++counter}`) =>
  receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
    channelId,
    from: `1555000${String(1000 + counter).padStart(4, '0')}`,
    text,
  });

const open = async (...args: Parameters<typeof openRawStream>) => {
  const stream = await openRawStream(...args);
  streams.push(stream);
  return stream;
};
const dataOf = (message: { data?: string }) => JSON.parse(message.data!) as { type: string; data: { text?: string } };

describe('GET events/stream: the live event stream', () => {
  test('streams each event as id/event/data, data byte for byte the webhook delivery body', async ({ server }) => {
    const file = tenantSeed('Hooked');
    file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.received'] }];
    const ids = await server.seed(file);
    const stream = await open(server.baseUrl, ids.users!.member!.apiKey!);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toContain('no-cache');
    await receive(server, ids.channels!.main!, 'Where is my parcel?');
    const [event] = await stream.events(1);
    expect(stream.messages[0]).toEqual({ retry: '3000' });
    expect(event!.event).toBe('message.received');
    expect(event!.id).toMatch(/^\d+$/);
    expect(dataOf(event!)).toMatchObject({ type: 'message.received', data: { text: 'Where is my parcel?' } });
    await server.untilIdle();
    const delivered = hooks.received.filter((hit) => hit.body.includes('Where is my parcel?'));
    expect(delivered.map((hit) => hit.body)).toEqual([event!.data]);
  });

  test('shows only the key’s channels, the channel and types asked for; another channel is 403', async ({
    server,
    acme,
    globex,
  }) => {
    const member = await open(server.baseUrl, acme.memberKey);
    const second = await open(server.baseUrl, acme.ownerKey, { query: { channelId: acme.secondChannelId } });
    const statusOnly = await open(server.baseUrl, acme.ownerKey, { query: { types: 'message.status.updated' } });
    const other = await open(server.baseUrl, globex.ownerKey);
    await receive(server, acme.secondChannelId, 'second channel');
    await receive(server, acme.mainChannelId, 'main channel');
    expect((await member.events(1)).map((m) => dataOf(m).data.text)).toEqual(['main channel']);
    expect((await second.events(1)).map((m) => dataOf(m).data.text)).toEqual(['second channel']);
    // A later event on Globex's own channel proves its stream was live and skipped Acme's.
    await receive(server, globex.mainChannelId, 'globex');
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
  });

  test('replays after Last-Event-ID in order, even after a restart, then goes on live', async ({ server, acme }) => {
    const env = { DATABASE_URL: server.databaseUrl, ALLOW_HTTP_WEBHOOKS: 'true' };
    const before = await startTestServer(env);
    let after: TestServer | undefined;
    let beforeClosed = false;
    try {
      const first = await open(before.baseUrl, acme.memberKey);
      await receive(before, acme.mainChannelId, 'before');
      const [seen] = await first.events(1);
      first.close();
      await receive(before, acme.mainChannelId, 'missed 1');
      await receive(before, acme.mainChannelId, 'missed 2');
      await before.close();
      beforeClosed = true;

      // A new server process on the same database: the replay comes from PostgreSQL.
      after = await startTestServer(env);
      const resumed = await open(after.baseUrl, acme.memberKey, { lastEventId: seen!.id });
      expect((await resumed.events(2)).map((m) => dataOf(m).data.text)).toEqual(['missed 1', 'missed 2']);
      await receive(after, acme.mainChannelId, 'live again');
      const events = await resumed.events(3);
      expect(events.map((m) => dataOf(m).data.text)).toEqual(['missed 1', 'missed 2', 'live again']);
      const ids = events.map((m) => BigInt(m.id!));
      expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
      expect(ids[0]! > BigInt(seen!.id!)).toBe(true);
      resumed.close();
    } finally {
      if (!beforeClosed) await before.close();
      await after?.close();
    }
  });
});

describe('GET events/stream: resets, instances, limits and revocation', () => {
  test('a cursor older than 24 h (or unknown) starts with one `event: reset`, then live', async ({ server, acme }) => {
    const first = await open(server.baseUrl, acme.memberKey);
    await receive(server, acme.mainChannelId, 'old news');
    const [old] = await first.events(1);
    await sql(
      server.databaseUrl,
      `update workspace_events set created_at = now() - interval '25 hours' where cursor = $1`,
      [old!.id],
    );
    for (const lastEventId of [old!.id!, '999999999999', 'garbage']) {
      const resumed = await open(server.baseUrl, acme.memberKey, { lastEventId });
      await receive(server, acme.mainChannelId, `after ${lastEventId}`);
      const [reset, live] = await resumed.events(2);
      expect(reset!.event).toBe('reset');
      expect(dataOf(live!).data.text).toBe(`after ${lastEventId}`);
      resumed.close();
    }
  });

  test('an event recorded through one instance reaches a stream on another within 1 s', async ({ server, acme }) => {
    const other = await startTestServer({ DATABASE_URL: server.databaseUrl, ALLOW_HTTP_WEBHOOKS: 'true' });
    try {
      const stream = await open(other.baseUrl, acme.memberKey);
      const started = Date.now();
      await receive(server, acme.mainChannelId, 'across instances');
      const [event] = await stream.events(1, 1000);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(dataOf(event!).data.text).toBe('across instances');
    } finally {
      await other.close();
    }
  });

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
