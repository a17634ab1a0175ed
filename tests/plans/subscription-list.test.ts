import { describe, expect } from 'vitest';
import { tenantSeed } from '../helpers/fixtures.js';
import { expectInvalid } from '../helpers/expect.js';
import { test } from '../helpers/test.js';

describe('POST /api/platform/v1/subscription/list', () => {
  test.beforeAll(async ({ server, acme }) => {
    await server.seed({
      plans: [
        {
          platform: acme.platformId,
          name: 'Legacy',
          itemType: 'plan',
          prices: { quarterly: 120.5 },
          currency: 'EUR',
          isActive: false,
        },
        { platform: acme.platformId, name: 'Priority support', itemType: 'addon', prices: { monthly: 9 } },
      ],
    });
    await server.seed(tenantSeed('Globex'));
  });

  test('lists the platform’s base plans only, with prices per cycle, currency, isActive and total', async ({
    server,
    acme,
  }) => {
    const reply = await server.client(acme.ownerKey).platform.subscription.list({ platformId: acme.platformId });
    expect(reply.total).toBe(2);
    expect(reply.data).toEqual([
      {
        id: acme.ids.plans!.pro,
        name: 'Pro',
        itemType: 'plan',
        prices: { monthly: 49, annual: 490 },
        currency: 'USD',
        isActive: true,
      },
      {
        id: expect.any(String),
        name: 'Legacy',
        itemType: 'plan',
        prices: { quarterly: 120.5 },
        currency: 'EUR',
        isActive: false,
      },
    ]);
  });

  test('answers GET with the platformId in the query string', async ({ server, acme }) => {
    const viaGet = await server.http.get(`/api/platform/v1/subscription/list?platformId=${acme.platformId}`, {
      headers: { 'X-API-Key': acme.ownerKey },
    });
    expect(viaGet.status).toBe(200);
    expect(viaGet.data.total).toBe(2);
  });

  test('requires platformId', async ({ server, acme }) => {
    // @ts-expect-error platformId is required by the contract; sent anyway to check the server's answer
    await expectInvalid(server.client(acme.ownerKey).platform.subscription.list({}), 'platformId', 'is required');
    await expectInvalid(
      server.client(acme.ownerKey).platform.subscription.list({ platformId: '' }),
      'platformId',
      'must not be empty',
    );
  });
});
