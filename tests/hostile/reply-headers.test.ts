import { describe, expect } from 'vitest';
import { test as base } from '../helpers/test.js';
import { connectChannel, SECRETS_KEY } from '../whatsapp-inbound/inbound-fixture.js';

/**
 * Issue #22 item 9: API replies can carry secrets (a webhook secret on create) and personal data (contacts), so no
 * cache may keep them and no browser may sniff them into something else; Meta's verification echo (a reflected
 * challenge) is never sniffed either.
 */
const test = base.extend('whatsapp', { scope: 'file' }, async ({ server, acme }) =>
  connectChannel({ em: server.database.orm.em.fork() }, acme.mainChannelId),
);
test.override('serverEnv', { SECRETS_KEY });

const expectGuarded = (headers: { get(name: string): string | null }, what: string) => {
  expect(headers.get('cache-control'), what).toBe('no-store');
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
};

describe('reply headers', () => {
  test('every API reply, success or failure, is no-store and nosniff', async ({ server, acme }) => {
    const key = { 'X-API-Key': acme.ownerKey };
    const replies = {
      'a success': await server.http.post(
        '/api/workspace/v1/contacts/list',
        { channelId: acme.mainChannelId },
        { headers: key },
      ),
      'a GET': await server.http.get(`/api/platform/v1/webhooks/list?platformId=${acme.platformId}`, { headers: key }),
      'a 400': await server.http.post('/api/workspace/v1/contacts/list', { page: 0 }, { headers: key }),
      'a 401': await server.http.post('/api/workspace/v1/channels/list', {}),
      'a 404 route': await server.http.post('/api/workspace/v1/nowhere', {}, { headers: key }),
      'a 405': await server.http.put('/api/workspace/v1/channels/list', {}, { headers: key }),
    };
    for (const [what, reply] of Object.entries(replies)) {
      expect(reply.status, what).toBeGreaterThan(0);
      expectGuarded({ get: (name) => (reply.headers[name] as string | undefined) ?? null }, what);
    }
  });

  test('the WhatsApp verification echo is plain text that is never sniffed', async ({ server, whatsapp }) => {
    const query = new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.verify_token': whatsapp.verifyToken,
      'hub.challenge': '<html><script>alert(1)</script>',
    });
    const reply = await fetch(`${server.baseUrl}/webhooks/whatsapp/${whatsapp.channelId}?${query}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    expectGuarded(reply.headers, 'verification echo');
  });
});
