import { describe, expect } from 'vitest';
import { createTenant } from '../helpers/fixtures.js';
import { expectEnvelopeError } from '../helpers/expect.js';
import { sql } from '../helpers/database.js';
import { startTestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';

const CHANNELS = '/api/workspace/v1/channels/list';

const test = base.extend('headers', ({ acme }) => ({ 'X-API-Key': acme.ownerKey }));

describe('response envelope and HTTP edge cases', () => {
  test('wraps success as {success, data, total} with status 200', async ({ server, acme, headers }) => {
    const reply = await server.http.post(CHANNELS, undefined, { headers });
    expect(reply.status).toBe(200);
    // Seeded in one flush, the two channels may share a creation millisecond: compare as a set.
    expect(reply.data).toEqual({
      success: true,
      total: 2,
      data: expect.arrayContaining([
        {
          id: acme.mainChannelId,
          name: 'Acme Main',
          phone: '15550001111',
          status: 'active',
          quality: 'unknown',
          messagingLimit: null,
          createdAt: expect.stringMatching(/Z$/),
        },
        {
          id: acme.secondChannelId,
          name: 'Acme Second',
          phone: '15550002222',
          status: 'active',
          quality: 'unknown',
          messagingLimit: null,
          createdAt: expect.stringMatching(/Z$/),
        },
      ]),
    });
  });

  test('answers GET with the same result as POST', async ({ server, headers }) => {
    const [post, get] = await Promise.all([
      server.http.post(CHANNELS, {}, { headers }),
      server.http.get(CHANNELS, { headers }),
    ]);
    expect(get.status).toBe(200);
    expect(get.data).toEqual(post.data);
  });

  test('404 for unknown routes, 405 for a known path with another method', async ({ server, headers }) => {
    expectEnvelopeError(await server.http.post('/api/workspace/v1/nope', {}, { headers }), 404, 'not_found');
    expectEnvelopeError(await server.http.get('/nope', { headers }), 404, 'not_found');
    const put = await server.http.put(CHANNELS, {}, { headers });
    expectEnvelopeError(put, 405, 'method_not_allowed');
    expect(put.headers.allow).toBe('POST, GET');
    // The live stream is GET only.
    const post = await server.http.post('/api/workspace/v1/events/stream', {}, { headers });
    expectEnvelopeError(post, 405, 'method_not_allowed');
    expect(post.headers.allow).toBe('GET');
  });

  test('400 for malformed JSON, 415 for a body that is not JSON, 413 over 1 MB', async ({ server, headers }) => {
    const bad = await server.http.post(CHANNELS, '{"a":', {
      headers: { ...headers, 'Content-Type': 'application/json' },
    });
    expectEnvelopeError(bad, 400, 'invalid_json');
    const text = await server.http.post(CHANNELS, 'hello', { headers: { ...headers, 'Content-Type': 'text/plain' } });
    expectEnvelopeError(text, 415, 'unsupported_media_type');
    const form = await server.http.post(CHANNELS, 'a=1', {
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectEnvelopeError(form, 415, 'unsupported_media_type');
    const huge = await server.http.post(CHANNELS, { blob: 'x'.repeat(1_100_000) }, { headers });
    expectEnvelopeError(huge, 413, 'payload_too_large');
  });

  test('400 naming the body when it is not an object', async ({ server, headers }) => {
    const reply = await server.http.post(CHANNELS, [1, 2], { headers });
    expectEnvelopeError(reply, 400, 'invalid_request');
    expect(reply.data.message).toMatch(/^body: must be an object/);
  });

  test('echoes a sane X-Request-Id and replaces an unsafe one', async ({ server, headers }) => {
    const echoed = await server.http.post(CHANNELS, {}, { headers: { ...headers, 'X-Request-Id': 'trace-123' } });
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const replaced = await server.http.post(
      CHANNELS,
      {},
      { headers: { ...headers, 'X-Request-Id': 'bad id <script>' } },
    );
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('health and readiness answer without a key', async ({ server }) => {
    expect((await server.http.get('/healthz')).data).toEqual({ success: true, data: { status: 'ok' } });
    expect((await server.http.get('/readyz')).data).toEqual({
      success: true,
      data: { status: 'ready', database: 'up' },
    });
  });

  test('500 with the request id and no internals when something unexpected breaks', async () => {
    const broken = await startTestServer();
    try {
      const tenant = await createTenant(broken, 'Broken');
      await sql(broken.databaseUrl, 'drop table channel_users cascade');
      const reply = await broken.http.post(
        CHANNELS,
        {},
        { headers: { 'X-API-Key': tenant.ownerKey, 'X-Request-Id': 'req-500' } },
      );
      expectEnvelopeError(reply, 500, 'internal_error');
      expect(reply.data.message).toContain('req-500');
      expect(reply.data.message).not.toMatch(/channel_users|relation|sql/i);
    } finally {
      await broken.close();
    }
  });
});
