import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../helpers/receivers.js';
import { seedTenantWithWebhooks, type WebhookTenant } from '../webhooks/webhook-tenant.js';

/**
 * The signal the suites wait on instead of sleeping: the worker's backlog as PostgreSQL holds it (due: runnable now
 * or running; later: waiting for its start time). Shown here to count what is really queued, so "idle" means idle.
 */
const ENV = { ALLOW_HTTP_WEBHOOKS: 'true', DELIVERY_RETRY_SCHEDULE: '3600' };

describe('the job worker’s backlog and idle signal', () => {
  const secret = newWebhookSecret();
  let queuing: TestServer;
  let working: TestServer | undefined;
  let hooks: WebhookReceiver;
  let tenant: WebhookTenant;

  beforeAll(async () => {
    // The receiver refuses the first POST; the retry is an hour away, so it stays `later`.
    hooks = await startWebhookReceiver(secret, (n) => (n === 1 ? 500 : 200));
    queuing = await startTestServer({ ...ENV, JOB_WORKER: 'false' });
    tenant = await seedTenantWithWebhooks(queuing, 'Acme', [{ url: hooks.url, secret, events: ['ticket.closed'] }]);
  });
  afterAll(async () => {
    await working?.close();
    await queuing?.close();
    await hooks?.close();
  });

  it('counts queued jobs as due while no worker runs them, and is never idle meanwhile', async () => {
    expect(await queuing.untilIdle()).toEqual({ due: 0, later: 0 });
    await queuing
      .client(tenant.ownerKey)
      .platform.tickets.manage({ platformId: tenant.platformId, ticketId: tenant.ticketId, status: 'closed' });
    // One email to the owner, one webhook to the endpoint: queued in the close's transaction.
    expect(await queuing.untilIdle(500).catch((error: Error) => error.message)).toMatch(
      /not idle after 500 ms: \{"due":2,"later":0\}/,
    );
  });

  it('is idle once a worker has run them, with the refused webhook’s retry counted for later', async () => {
    working = await startTestServer({ ...ENV, DATABASE_URL: queuing.databaseUrl });
    expect(await working.untilIdle()).toEqual({ due: 0, later: 1 });
    expect(hooks.received).toHaveLength(1);
  });
});
