import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@switchboard/client';
import { createLogger, idempotencyStore, idempotencySweeper } from '@switchboard/server';
import pg from 'pg';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import type { TestServer } from '../helpers/server.js';
import { test } from '../helpers/test.js';

const SEND = '/api/workspace/v1/chat/templates/send';
const LABELS = '/api/workspace/v1/labels/manage';
const CONTACTS = '/api/workspace/v1/contacts/list';
const ORDER = { to: '15550000001', templateName: 'order_update', variables: 'Ada, A-1001' };

const headers = (apiKey: string, key?: string) => ({
  'x-api-key': apiKey,
  ...(key === undefined ? {} : { 'idempotency-key': key }),
});
const post = (server: TestServer, apiKey: string, path: string, body: object, key?: string) =>
  server.http.post(path, body, { headers: headers(apiKey, key) });
const templateMessages = async (server: TestServer, channelId: string) =>
  (
    await sql<{ n: number }>(
      server.databaseUrl,
      `select count(*)::int as n from messages where channel_id = $1 and type = 'template'`,
      [channelId],
    )
  )[0]!.n;
const storedKeys = async (server: TestServer, key: string) =>
  sql(
    server.databaseUrl,
    'select user_id, status_code, extract(epoch from expires_at - created_at)::int as kept_seconds from ' +
      'idempotency_keys where key = $1',
    [key],
  );

describe('Idempotency-Key on writes', () => {
  test('replays the first reply to a retry with the same parameters and writes nothing again', async ({
    server,
    acme,
  }) => {
    const key = randomUUID();
    const before = await templateMessages(server, acme.mainChannelId);
    const first = await post(server, acme.memberKey, SEND, ORDER, key);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await post(server, acme.memberKey, SEND, ORDER, key);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.data).toEqual(first.data);
    expect(await templateMessages(server, acme.mainChannelId)).toBe(before + 1);
    expect(await storedKeys(server, key)).toEqual([
      { user_id: acme.memberId, status_code: 200, kept_seconds: 24 * 3600 },
    ]);
  });

  test('without the header every request runs, as before', async ({ server, acme }) => {
    const before = await templateMessages(server, acme.mainChannelId);
    const replies = [await post(server, acme.memberKey, SEND, ORDER), await post(server, acme.memberKey, SEND, ORDER)];
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(replies[0]!.data.data.msgid).not.toBe(replies[1]!.data.data.msgid);
    expect(await templateMessages(server, acme.mainChannelId)).toBe(before + 2);
  });

  test('the same key with other parameters or on another endpoint is 422 idempotency_key_reused', async ({
    server,
    acme,
  }) => {
    const key = randomUUID();
    expect((await post(server, acme.memberKey, SEND, ORDER, key)).status).toBe(200);
    const before = await templateMessages(server, acme.mainChannelId);
    const otherParams = await post(server, acme.memberKey, SEND, { ...ORDER, variables: 'Ada, A-1002' }, key);
    expect(otherParams.status).toBe(422);
    expect(otherParams.data).toMatchObject({
      success: false,
      error: 'idempotency_key_reused',
      message: expect.stringMatching(/Idempotency-Key/),
    });
    const otherEndpoint = await post(server, acme.memberKey, LABELS, { name: 'reused-key' }, key);
    expect(otherEndpoint.status).toBe(422);
    expect(await templateMessages(server, acme.mainChannelId)).toBe(before);
    expect(await sql(server.databaseUrl, `select 1 from labels where name = 'reused-key'`)).toEqual([]);
  });

  test('a malformed key is a 400 naming the header', async ({ server, acme }) => {
    for (const key of ['k'.repeat(256), 'café', 'tab\tinside']) {
      const reply = await post(server, acme.memberKey, SEND, ORDER, key);
      expect(reply.status).toBe(400);
      expect(reply.data).toEqual({
        success: false,
        error: 'invalid_request',
        message: 'Idempotency-Key: must be 1 to 255 printable ASCII characters',
      });
    }
    expect((await post(server, acme.memberKey, SEND, ORDER, 'k'.repeat(255))).status).toBe(200);
  });

  test('a 400 is not stored: the same key with corrected parameters runs', async ({ server, acme }) => {
    const key = randomUUID();
    const invalid = await post(server, acme.memberKey, SEND, { to: ORDER.to }, key);
    expect(invalid.status).toBe(400);
    expect(invalid.data.message).toMatch(/templateName/);
    expect(await storedKeys(server, key)).toEqual([]);
    // A 400 from the handler, after the key was claimed, releases it too.
    const wrongCount = await post(server, acme.memberKey, SEND, { ...ORDER, variables: 'Ada' }, key);
    expect(wrongCount.status).toBe(400);
    expect(wrongCount.data.message).toMatch(/^variables: /);
    expect(await storedKeys(server, key)).toEqual([]);
    const corrected = await post(server, acme.memberKey, SEND, ORDER, key);
    expect(corrected.status).toBe(200);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
  });

  test('a 5xx releases the key so the retry runs', async ({ server, acme }) => {
    const key = randomUUID();
    const label = { channelId: acme.mainChannelId, name: `after-5xx-${key.slice(0, 8)}` };
    await sql(server.databaseUrl, 'alter table labels rename to labels_away');
    const failed = await post(server, acme.ownerKey, LABELS, label, key).finally(() =>
      sql(server.databaseUrl, 'alter table labels_away rename to labels'),
    );
    // The write failed inside its transaction: nothing happened, so the key is free for the retry.
    expect(failed.status).toBe(500);
    expect(await storedKeys(server, key)).toEqual([]);
    const retry = await post(server, acme.ownerKey, LABELS, label, key);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  test('a send the database cannot record is never made: the key stays free and the retry sends it once', async ({
    server,
    acme,
  }) => {
    const key = randomUUID();
    const before = await templateMessages(server, acme.mainChannelId);
    await sql(server.databaseUrl, 'alter table messages rename to messages_away');
    const failed = await post(server, acme.ownerKey, SEND, { channelId: acme.mainChannelId, ...ORDER }, key).finally(
      () => sql(server.databaseUrl, 'alter table messages_away rename to messages'),
    );
    // The message is queued before any provider call: a failed insert sends nothing and frees the key.
    expect(failed.status).toBe(500);
    expect(await storedKeys(server, key)).toEqual([]);
    expect(await templateMessages(server, acme.mainChannelId)).toBe(before);
    const retry = await post(server, acme.ownerKey, SEND, { channelId: acme.mainChannelId, ...ORDER }, key);
    expect([retry.status, retry.headers['idempotent-replayed'], retry.data.data.status]).toEqual([
      200,
      undefined,
      'accepted',
    ]);
    expect(await templateMessages(server, acme.mainChannelId)).toBe(before + 1);
  });

  test('a retry while the first request still runs is 409 idempotency_key_in_progress; exactly one effect', async ({
    server,
    acme,
  }) => {
    const key = randomUUID();
    const before = await templateMessages(server, acme.mainChannelId);
    // Holding the channel row FOR UPDATE blocks the message insert (its foreign key check), so the first request
    // stays inside its handler until we let go.
    const blocker = new pg.Client({ connectionString: server.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from channels where id = $1 for update', [acme.mainChannelId]);
      const first = post(server, acme.memberKey, SEND, ORDER, key);
      await expect
        .poll(
          async () =>
            (
              await blocker.query(
                `select count(*)::int as n from pg_stat_activity where datname = current_database() and ` +
                  `wait_event_type = 'Lock'`,
              )
            ).rows[0].n,
        )
        .toBeGreaterThan(0);
      const second = await post(server, acme.memberKey, SEND, ORDER, key);
      expect(second.status).toBe(409);
      expect(second.data).toMatchObject({ success: false, error: 'idempotency_key_in_progress' });
      await blocker.query('rollback');
      const completed = await first;
      expect(completed.status).toBe(200);
      const third = await post(server, acme.memberKey, SEND, ORDER, key);
      expect(third.headers['idempotent-replayed']).toBe('true');
      expect(third.data).toEqual(completed.data);
    } finally {
      await blocker.end();
    }
    expect(await templateMessages(server, acme.mainChannelId)).toBe(before + 1);
  });

  test('two simultaneous requests with one key write once', async ({ server, acme }) => {
    const key = randomUUID();
    const before = await templateMessages(server, acme.mainChannelId);
    const replies = await Promise.all([
      post(server, acme.memberKey, SEND, ORDER, key),
      post(server, acme.memberKey, SEND, ORDER, key),
    ]);
    const outcomes = replies
      .map((r) => (r.status === 200 ? (r.headers['idempotent-replayed'] ? 'replayed' : 'ran') : r.data.error))
      .sort();
    expect([
      ['idempotency_key_in_progress', 'ran'],
      ['ran', 'replayed'],
    ]).toContainEqual(outcomes);
    expect(await templateMessages(server, acme.mainChannelId)).toBe(before + 1);
  });

  test('an expired key runs the request again, and the sweep deletes expired keys', async ({ server, acme }) => {
    const [expiring, fresh] = [randomUUID(), randomUUID()];
    const first = await post(server, acme.memberKey, SEND, ORDER, expiring);
    expect((await post(server, acme.memberKey, SEND, ORDER, fresh)).status).toBe(200);
    await sql(
      server.databaseUrl,
      `update idempotency_keys set expires_at = now() - interval '1 second' where key = $1`,
      [expiring],
    );
    const again = await post(server, acme.memberKey, SEND, ORDER, expiring);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.data.data.msgid).not.toBe(first.data.data.msgid);

    await sql(
      server.databaseUrl,
      `update idempotency_keys set expires_at = now() - interval '1 second' where key = $1`,
      [expiring],
    );
    await idempotencySweeper.run({ em: server.database.orm.em, jobs: server.jobs, logger: createLogger('silent') });
    expect(await storedKeys(server, expiring)).toEqual([]);
    expect(await storedKeys(server, fresh)).toHaveLength(1);
  });

  test('a claim whose request never answered lapses after its 5-minute lease; then the key can be claimed', async ({
    server,
    acme,
  }) => {
    const key = randomUUID();
    const em = server.database.orm.em.fork();
    expect(await idempotencyStore.claim(em, acme.memberId, key, 'first')).toBe(true);
    expect(await storedKeys(server, key)).toEqual([{ user_id: acme.memberId, status_code: null, kept_seconds: 300 }]);
    expect(await idempotencyStore.claim(em, acme.memberId, key, 'second')).toBe(false);
    await sql(
      server.databaseUrl,
      `update idempotency_keys set expires_at = now() - interval '1 second' where key = $1`,
      [key],
    );
    expect(await idempotencyStore.claim(em, acme.memberId, key, 'second')).toBe(true);
    expect(await idempotencyStore.stored(em, acme.memberId, key)).toEqual({
      fingerprint: 'second',
      statusCode: null,
      responseBody: null,
    });
  });

  test('GET with the same parameters in the query is the same request as the POST', async ({ server, acme }) => {
    const key = randomUUID();
    const params = { channelId: acme.mainChannelId, name: `idem-${key.slice(0, 8)}`, sortOrder: 3 };
    const created = await post(server, acme.memberKey, LABELS, params, key);
    expect(created.data.message).toBe('Label created successfully');
    const get = (sortOrder: string) =>
      server.http.get(LABELS, { params: { ...params, sortOrder }, headers: headers(acme.memberKey, key) });
    const replayed = await get('3');
    expect(replayed.status).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.data).toEqual(created.data);
    expect((await get('4')).data).toMatchObject({ error: 'idempotency_key_reused' });
  });

  test('keys are per API user: another user’s identical key is independent', async ({ server, acme }) => {
    const key = randomUUID();
    const before = await templateMessages(server, acme.mainChannelId);
    const member = await post(server, acme.memberKey, SEND, ORDER, key);
    const owner = await post(server, acme.ownerKey, SEND, { ...ORDER, channelId: acme.mainChannelId }, key);
    expect(owner.status).toBe(200);
    expect(owner.headers['idempotent-replayed']).toBeUndefined();
    expect(owner.data.data.msgid).not.toBe(member.data.data.msgid);
    expect(await templateMessages(server, acme.mainChannelId)).toBe(before + 2);
    expect((await storedKeys(server, key)).map((row) => row.user_id).sort()).toEqual(
      [acme.memberId, acme.ownerId].sort(),
    );
  });

  test('reads ignore the header', async ({ server, acme }) => {
    const key = randomUUID();
    const reply = await post(server, acme.memberKey, CONTACTS, {}, key);
    expect(reply.status).toBe(200);
    expect(await storedKeys(server, key)).toEqual([]);
  });

  test('the SDK retries a write whose reply was lost under the same key, and the server replays it', async ({
    server,
    acme,
  }) => {
    const proxy = await startReplyDroppingProxy(server.baseUrl);
    try {
      const before = await templateMessages(server, acme.mainChannelId);
      const sb = createClient({ baseUrl: proxy.url, apiKey: acme.memberKey, retry: { baseDelayMs: 1 } });
      const reply = await sb.workspace.chat.templates.send(ORDER);
      expect(reply).toMatchObject({ success: true, data: { status: 'accepted' } });
      expect(proxy.seen).toHaveLength(2);
      expect(proxy.seen[1]!.key).toBe(proxy.seen[0]!.key);
      expect(proxy.seen.map((s) => s.replayed)).toEqual([undefined, 'true']);
      expect(await templateMessages(server, acme.mainChannelId)).toBe(before + 1);
    } finally {
      await proxy.close();
    }
  });
});

interface ProxiedRequest {
  key: string | undefined;
  replayed: string | undefined;
}

/**
 * Forwards requests to the server; the first one reaches it and completes there, but its reply is thrown away and
 * the client's connection cut: the lost reply a network failure causes.
 */
async function startReplyDroppingProxy(
  target: string,
): Promise<{ url: string; seen: ProxiedRequest[]; close(): Promise<void> }> {
  const seen: ProxiedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const forwarded = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (upstream) => {
      const chunks: Buffer[] = [];
      upstream.on('data', (chunk: Buffer) => chunks.push(chunk));
      upstream.on('end', () => {
        seen.push({
          key: req.headers['idempotency-key'] as string | undefined,
          replayed: upstream.headers['idempotent-replayed'] as string | undefined,
        });
        if (seen.length === 1) return void req.socket.destroy();
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        res.end(Buffer.concat(chunks));
      });
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
