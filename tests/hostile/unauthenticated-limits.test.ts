import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { test as base } from '../helpers/test.js';
import { connectChannel, SECRETS_KEY } from '../whatsapp-inbound/inbound-fixture.js';
import { webhookSignature } from '../../apps/server/src/modules/whatsapp-inbound/webhook-signature.js';

/**
 * Issue #22 item 10: traffic without credentials is bounded per source address (429 in the envelope once an
 * address has spent its failures, before any key lookup or secret is opened), and a signed POST from Meta is
 * checked against the channel's app secret alone, kept opened for a while.
 */
const test = base.extend('whatsapp', { scope: 'file' }, async ({ server, acme }) =>
  connectChannel({ em: server.database.orm.em.fork() }, acme.mainChannelId),
);
// One trusted hop: each test speaks from addresses of its own through X-Forwarded-For.
test.override('serverEnv', { SECRETS_KEY, TRUST_PROXY: '1' });

const from = (address: string) => ({ 'x-forwarded-for': address });

describe('unauthenticated traffic', () => {
  test('60 requests with bad keys from one address, then 429 for that address only, even with a good key', async ({
    server,
    acme,
  }) => {
    const channels = (address: string, key: string) =>
      server.http.post('/api/workspace/v1/channels/list', {}, { headers: { ...from(address), 'X-API-Key': key } });
    const bad = `sb_live_${'A'.repeat(43)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) statuses.push((await channels('198.51.100.7', i % 2 ? bad : 'no-key')).status);
    expect(statuses).toEqual([...Array<number>(60).fill(401), 429]);
    const limited = await channels('198.51.100.7', acme.ownerKey);
    expect(limited.status).toBe(429);
    expect(limited.data).toMatchObject({ success: false, error: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await channels('198.51.100.8', bad)).status).toBe(401);
    expect((await channels('198.51.100.8', acme.ownerKey)).status).toBe(200);
  });

  test('Meta webhooks with bad signatures: 30 from one address, then 429', async ({ server, whatsapp }) => {
    const post = (address: string, signature: string) =>
      fetch(`${server.baseUrl}/webhooks/whatsapp/${whatsapp.channelId}`, {
        method: 'POST',
        headers: { ...from(address), 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body: '{"object":"whatsapp_business_account","entry":[]}',
      });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await post('203.0.113.9', `sha256=${'0'.repeat(64)}`)).status);
    expect(statuses).toEqual([...Array<number>(30).fill(401), 429]);
    const limited = await post(
      '203.0.113.9',
      webhookSignature('{"object":"whatsapp_business_account","entry":[]}', whatsapp.appSecret),
    );
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ success: false, error: 'rate_limited' });
    expect((await post('203.0.113.10', `sha256=${'0'.repeat(64)}`)).status).toBe(401);
  });

  test('a signed POST opens the app secret only, and keeps it opened for the next ones', async ({
    server,
    whatsapp,
  }) => {
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [], probe: 'one secret' });
    const post = (bytes: string) =>
      fetch(`${server.baseUrl}/webhooks/whatsapp/${whatsapp.channelId}`, {
        method: 'POST',
        headers: {
          ...from('192.0.2.77'),
          'content-type': 'application/json',
          'x-hub-signature-256': webhookSignature(bytes, whatsapp.appSecret),
        },
        body: bytes,
      });
    // The token and verify token cannot be opened any more: a check that needed them would fail.
    await sql(
      server.databaseUrl,
      `update whatsapp_connections set access_token_ciphertext = 'v1.broken', verify_token_ciphertext = 'v1.broken'
        where channel_id = $1`,
      [whatsapp.channelId],
    );
    expect((await post(body)).status).toBe(200);
    // Now the app secret too: the one opened for the last POST is still kept.
    await sql(
      server.databaseUrl,
      `update whatsapp_connections set app_secret_ciphertext = 'v1.broken' where channel_id = $1`,
      [whatsapp.channelId],
    );
    expect((await post(`${body} `)).status).toBe(200);
  });
});
