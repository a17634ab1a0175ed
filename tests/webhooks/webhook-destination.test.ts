import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { newWebhookSecret } from '../helpers/receivers.js';
import { seedTenantWithWebhooks } from './webhook-tenant.js';

/** The SSRF guard at delivery time: without ALLOW_HTTP_WEBHOOKS, local destinations fail for good, unreached. */
describe('webhook destinations without ALLOW_HTTP_WEBHOOKS', () => {
  let server: TestServer;
  let listener: Server;
  let connections = 0;
  let port: number;

  beforeAll(async () => {
    // A bare TCP listener: any connection attempt, TLS or not, counts.
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    port = await new Promise<number>((resolve) =>
      listener.listen(0, '127.0.0.1', () => resolve((listener.address() as { port: number }).port)),
    );
    server = await startTestServer({ DELIVERY_RETRY_SCHEDULE: '1' });
    const secret = newWebhookSecret();
    const tenant = await seedTenantWithWebhooks(server, 'Acme', [
      { url: `https://127.0.0.1:${port}/hooks`, secret, events: ['ticket.closed'] },
      { url: `https://localhost:${port}/hooks`, secret, events: ['ticket.closed'] },
      { url: `http://127.0.0.1:${port}/hooks`, secret, events: ['ticket.closed'] },
    ]);
    await server
      .client(tenant.ownerKey)
      .platform.tickets.manage({ platformId: tenant.platformId, ticketId: tenant.ticketId, status: 'closed' });
  });
  afterAll(async () => {
    await server?.close();
    listener?.close();
  });

  const deliveries = () =>
    sql<{ url: string; status: string; attempts: number; last_error: string; next_attempt_at: Date | null }>(
      server.databaseUrl,
      'select e.url, d.status, d.attempts, d.last_error, d.next_attempt_at from webhook_deliveries d join ' +
        'webhook_endpoints e on e.id = d.endpoint_id order by e.url',
    );

  it('fails each delivery after one attempt with the reason, and nothing reaches the receiver', async () => {
    await expect
      .poll(async () => (await deliveries()).map((d) => d.status), { timeout: 10_000 })
      .toEqual(['failed', 'failed', 'failed']);
    expect(await deliveries()).toEqual([
      {
        url: `http://127.0.0.1:${port}/hooks`,
        status: 'failed',
        attempts: 1,
        next_attempt_at: null,
        last_error: 'destination refused: http:// is not allowed; use https://',
      },
      {
        url: `https://127.0.0.1:${port}/hooks`,
        status: 'failed',
        attempts: 1,
        next_attempt_at: null,
        last_error: 'destination refused: 127.0.0.1 resolves to a non-public address (127.0.0.1 is a loopback address)',
      },
      {
        url: `https://localhost:${port}/hooks`,
        status: 'failed',
        attempts: 1,
        next_attempt_at: null,
        last_error: expect.stringMatching(
          /^destination refused: localhost resolves to a non-public address \(.*loopback address\)$/,
        ),
      },
    ]);
    const attempts = await sql(server.databaseUrl, 'select status_code, error from webhook_attempts');
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.status_code === null && String(a.error).startsWith('destination refused: '))).toBe(
      true,
    );
    expect(connections).toBe(0);
  });
});
