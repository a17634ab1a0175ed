import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { bodyOf, customerWrites, streamTracker } from '../helpers/event-stream.js';
import { tenantSeed } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';
import { test } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver } from '../helpers/receivers.js';

const secret = newWebhookSecret();
const hooks = await startWebhookReceiver(secret);
const streams = streamTracker();
afterAll(async () => {
  streams.closeAll();
  await hooks.close();
});
test.override('serverEnv', { ALLOW_HTTP_WEBHOOKS: 'true' });
const open = streams.open;
const dataOf = bodyOf;

describe('GET events/stream: the live event stream', () => {
  test('streams each event as id/event/data, data byte for byte the webhook delivery body', async ({ server }) => {
    const file = tenantSeed('Hooked');
    file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.received'] }];
    const ids = await server.seed(file);
    const stream = await open(server.baseUrl, ids.users!.member!.apiKey!);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toContain('no-cache');
    await customerWrites(server, ids.channels!.main!, 'Where is my parcel?');
    const [event] = await stream.events(1);
    expect(stream.messages[0]).toMatchObject({ retry: '3000' });
    expect(Object.keys(stream.messages[0]!)).toEqual(['retry', 'at']);
    expect(event!.event).toBe('message.received');
    expect(event!.id).toMatch(/^\d+$/);
    expect(dataOf(event!)).toMatchObject({ type: 'message.received', data: { text: 'Where is my parcel?' } });
    await server.untilIdle();
    const delivered = hooks.received.filter((hit) => hit.body.includes('Where is my parcel?'));
    expect(delivered.map((hit) => hit.body)).toEqual([event!.data]);
  });

  test('replays after Last-Event-ID in order, even after a restart, then goes on live', async ({ server, acme }) => {
    const env = { DATABASE_URL: server.databaseUrl, ALLOW_HTTP_WEBHOOKS: 'true' };
    const before = await startTestServer(env);
    let after: TestServer | undefined;
    let beforeClosed = false;
    try {
      const first = await open(before.baseUrl, acme.memberKey);
      await customerWrites(before, acme.mainChannelId, 'before');
      const [seen] = await first.events(1);
      first.close();
      await customerWrites(before, acme.mainChannelId, 'missed 1');
      await customerWrites(before, acme.mainChannelId, 'missed 2');
      await before.close();
      beforeClosed = true;

      // A new server process on the same database: the replay comes from PostgreSQL.
      after = await startTestServer(env);
      const resumed = await open(after.baseUrl, acme.memberKey, { lastEventId: seen!.id });
      expect((await resumed.events(2)).map((m) => dataOf(m).data.text)).toEqual(['missed 1', 'missed 2']);
      await customerWrites(after, acme.mainChannelId, 'live again');
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

describe('GET events/stream: resets and instances', () => {
  test('a cursor older than 24 h (or unknown) starts with one `event: reset`, then live', async ({ server, acme }) => {
    const first = await open(server.baseUrl, acme.memberKey);
    await customerWrites(server, acme.mainChannelId, 'old news');
    const [old] = await first.events(1);
    await sql(
      server.databaseUrl,
      `update workspace_events set created_at = now() - interval '25 hours' where cursor = $1`,
      [old!.id],
    );
    for (const lastEventId of [old!.id!, '999999999999', 'garbage']) {
      const resumed = await open(server.baseUrl, acme.memberKey, { lastEventId });
      await customerWrites(server, acme.mainChannelId, `after ${lastEventId}`);
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
      await customerWrites(server, acme.mainChannelId, 'across instances');
      const committed = Date.now();
      const [event] = await stream.events(1, 1000);
      expect(event!.at! - committed).toBeLessThan(1000);
      expect(dataOf(event!).data.text).toBe('across instances');
    } finally {
      await other.close();
    }
  });
});
