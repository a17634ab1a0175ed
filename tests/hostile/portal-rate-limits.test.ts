import { RATE_CLASSES } from '@switchboard/contract';
import { expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';
import { createPortalTenant, PASSWORD, PortalAgent } from '../portal/portal-helpers.js';

/**
 * The Developer Portal acts through the API's endpoints (http/local-api.ts); its actions spend the same rate-limit
 * budgets as the API calls they make (issue #31), so the portal is no way around them.
 */
test('portal actions count against the API budget of the calls they make', { timeout: 120_000 }, async ({ server }) => {
  const tenant = await createPortalTenant(server);
  const dana = new PortalAgent(server.baseUrl);
  expect((await dana.signIn(tenant.devEmail, PASSWORD)).status).toBe(303);
  const csrf = PortalAgent.csrf((await dana.get('/developer/webhooks')).text);
  // webhooks/manage is api_admin_write: one create, then toggles until the budget is spent.
  const budget = RATE_CLASSES.api_admin_write.points;
  const created = await dana.post('/developer/webhooks', {
    _csrf: csrf,
    url: 'https://hooks.example.com/budget',
    events: 'ticket.closed',
  });
  expect(created.status).toBe(200);
  const [endpoint] = await sql<{ id: string }>(server.databaseUrl, 'select id from webhook_endpoints where url = $1', [
    'https://hooks.example.com/budget',
  ]);
  const toggle = (n: number) =>
    dana.post(`/developer/webhooks/${endpoint!.id}/enabled`, { _csrf: csrf, enabled: String(n % 2 === 0) });
  for (let n = 1; n < budget; n++) expect((await toggle(n)).status, `action ${n + 1}`).toBe(303);

  const refused = await toggle(budget);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(refused.text).toContain('Too many requests');
  // Reading is another budget: the pages still show.
  expect((await dana.get('/developer/webhooks')).status).toBe(200);
});
