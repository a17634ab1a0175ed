import { describe, expect } from 'vitest';
import { expectEnvelopeError, expectUnauthorized } from '../helpers/expect.js';
import { test } from '../helpers/test.js';
import { sql } from '../helpers/database.js';

const CHANNELS = '/api/workspace/v1/channels/list';

describe('API key authentication', () => {
  test('accepts a valid key in X-API-Key and in Authorization: Bearer', async ({ server, acme }) => {
    const viaHeader = await server.client(acme.memberKey).workspace.channels.list();
    expect(viaHeader.data.map((c) => c.id)).toEqual([acme.mainChannelId]);
    const viaBearer = await server.http.post(CHANNELS, {}, { headers: { Authorization: `Bearer ${acme.memberKey}` } });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.data.data).toEqual(viaHeader.data);
  });

  test('refuses a missing key', async ({ server }) => {
    const reply = await server.http.post(CHANNELS, {});
    expectEnvelopeError(reply, 401, 'unauthorized');
    expect(reply.data.message).toMatch(/X-API-Key/);
  });

  test('refuses malformed, unknown and wrong-scheme keys', async ({ server, acme }) => {
    await expectUnauthorized(server.client('not-a-key').workspace.channels.list(), /Malformed/);
    await expectUnauthorized(
      server.client(`sb_live_${'A'.repeat(43)}`).workspace.channels.list(),
      /Invalid or revoked/,
    );
    // Right prefix, wrong secret: the prefix lookup finds a row, the constant-time hash compare refuses it.
    const forged = acme.memberKey.slice(0, 16) + 'x'.repeat(acme.memberKey.length - 16);
    await expectUnauthorized(server.client(forged).workspace.channels.list(), /Invalid or revoked/);
    const basic = await server.http.post(CHANNELS, {}, { headers: { Authorization: `Basic ${acme.memberKey}` } });
    expectEnvelopeError(basic, 401, 'unauthorized');
  });

  test('refuses a revoked key at once', async ({ server, acme }) => {
    const { lonelyKey } = acme;
    await server.client(lonelyKey).workspace.channels.list();
    await sql(server.databaseUrl, 'update api_keys set revoked_at = now() where prefix = $1', [lonelyKey.slice(0, 16)]);
    await expectUnauthorized(server.client(lonelyKey).workspace.channels.list(), /revoked/);
  });

  test('refuses a key in the query string even with a valid header', async ({ server, acme }) => {
    for (const query of [
      `apiKey=${acme.ownerKey}`,
      'api_key=whatever',
      'token=abc',
      'access_token=abc',
      'key=abc',
      `search=${acme.ownerKey}`,
    ]) {
      const reply = await server.http.get(`${CHANNELS}?${query}`, { headers: { 'X-API-Key': acme.ownerKey } });
      expectEnvelopeError(reply, 401, 'unauthorized');
      expect(reply.data.message).toMatch(/header/);
    }
  });

  test('refuses a key in the JSON body even with a valid header', async ({ server, acme }) => {
    for (const body of [
      { apiKey: acme.ownerKey },
      { api_key: 'x' },
      { token: 'x' },
      { nested: { value: acme.ownerKey } },
      { list: [acme.ownerKey] },
    ]) {
      const reply = await server.http.post(CHANNELS, body, { headers: { 'X-API-Key': acme.ownerKey } });
      expectEnvelopeError(reply, 401, 'unauthorized');
    }
  });

  test('records when a key was last used', async ({ server, acme }) => {
    const [before] = await sql(server.databaseUrl, 'select last_used_at from api_keys where prefix = $1', [
      acme.auditorKey.slice(0, 16),
    ]);
    expect(before!.last_used_at).toBeNull();
    await server.client(acme.auditorKey).workspace.channels.list();
    // Written just after the reply, with the other keys' uses of that moment.
    await expect
      .poll(
        async () =>
          (
            await sql(server.databaseUrl, 'select last_used_at from api_keys where prefix = $1', [
              acme.auditorKey.slice(0, 16),
            ])
          )[0]!.last_used_at,
        { timeout: 10_000 },
      )
      .not.toBeNull();
  });

  test('never stores the key itself', async ({ server, acme }) => {
    const rows = await sql(server.databaseUrl, 'select * from api_keys');
    expect(JSON.stringify(rows)).not.toContain(acme.ownerKey.slice(16));
  });
});
