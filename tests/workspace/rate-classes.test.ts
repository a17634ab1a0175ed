import { describe, expect } from 'vitest';
import { expectEnvelopeError } from '../helpers/expect.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { test as base } from '../helpers/test.js';
import { WORKSPACE_ENDPOINTS, type WorkspaceEndpoint } from './endpoints.js';

const LIMITS = { api_read: 120, api_write: 30, api_message: 600 } as const;
const reads = WORKSPACE_ENDPOINTS.filter((e) => e.rateClass === 'api_read');
const writes = WORKSPACE_ENDPOINTS.filter((e) => e.rateClass === 'api_write');

const test = base
  .extend(
    'post',
    ({ server }) =>
      (endpoint: WorkspaceEndpoint, tenant: Tenant) =>
        server.http.post(endpoint.path, endpoint.params(tenant), { headers: { 'X-API-Key': tenant.memberKey } }),
  )
  /** `count` calls spread round-robin over `endpoints`, all at once; returns the statuses. */
  .extend(
    'spend',
    ({ post }) =>
      async (tenant: Tenant, endpoints: WorkspaceEndpoint[], count: number) =>
        (
          await Promise.all(Array.from({ length: count }, (_, i) => post(endpoints[i % endpoints.length]!, tenant)))
        ).map((r) => r.status),
  );

/** Each endpoint spends the budget of its rate class (docs/api.md): reads 120 a minute, writes 30, per API user. */
describe('rate classes of the workspace endpoints', () => {
  test('announces each endpoint’s class in the RateLimit headers', async ({ server, post }) => {
    const tenant = await createTenant(server, 'Headers');
    for (const endpoint of WORKSPACE_ENDPOINTS) {
      const reply = await post(endpoint, tenant);
      expect(reply.status, endpoint.name).toBe(200);
      const limit = LIMITS[endpoint.rateClass];
      expect(reply.headers['ratelimit-limit'], endpoint.name).toBe(String(limit));
      expect(reply.headers['ratelimit-policy'], endpoint.name).toBe(`${limit};w=60`);
    }
  });

  test('reads share one budget of 120 a minute; the 121st read is 429 while writes still work', async ({
    server,
    post,
    spend,
  }) => {
    const tenant = await createTenant(server, 'Reads');
    expect(new Set(await spend(tenant, reads, 120))).toEqual(new Set([200]));
    for (const endpoint of reads) {
      const over = await post(endpoint, tenant);
      expectEnvelopeError(over, 429, 'rate_limited');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.headers['ratelimit-remaining']).toBe('0');
    }
    for (const endpoint of writes) expect((await post(endpoint, tenant)).status, endpoint.name).toBe(200);
  });

  test('writes share one budget of 30 a minute; the 31st write is 429 while reads still work', async ({
    server,
    post,
    spend,
  }) => {
    const tenant = await createTenant(server, 'Writes');
    expect(new Set(await spend(tenant, writes, 30))).toEqual(new Set([200]));
    for (const endpoint of writes) expectEnvelopeError(await post(endpoint, tenant), 429, 'rate_limited');
    for (const endpoint of reads) expect((await post(endpoint, tenant)).status, endpoint.name).toBe(200);
  });
});
