import { describe, expect } from 'vitest';
import { test } from '../helpers/test.js';

// No CORS_ORIGINS: the server as it ships (http-manners.test.ts covers a configured list).
const ORIGIN = 'https://app.example.com';
const CHANNELS = '/api/workspace/v1/channels/list';

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

describe('CORS is off by default', () => {
  test('a preflight gets the API’s usual 405 with no Access-Control-* header', async ({ server }) => {
    const preflight = await server.http.options(CHANNELS, {
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-api-key,content-type',
      },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.data).toMatchObject({ success: false, error: 'method_not_allowed' });
    expect(corsHeaders(preflight.headers)).toEqual([]);
  });

  test('a reply to a request with an Origin carries no Access-Control-Allow-Origin', async ({ server, acme }) => {
    const reply = await server.http.post(CHANNELS, {}, { headers: { Origin: ORIGIN, 'X-API-Key': acme.ownerKey } });
    expect(reply.status).toBe(200);
    expect(corsHeaders(reply.headers)).toEqual([]);
  });
});
