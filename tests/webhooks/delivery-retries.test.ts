import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  newWebhookSecret,
  startMailCatcher,
  startWebhookReceiver,
  type MailCatcher,
  type WebhookReceiver,
} from '../helpers/receivers.js';
import { freePort } from '../helpers/ports.js';
import { seedTenantWithWebhooks, type WebhookTenant } from './webhook-tenant.js';

/** Failure handling: timeouts, refused connections, an SMTP server that is down, giving up after the retry window. */
describe('delivery retries and giving up', () => {
  let server: TestServer;
  let smtpPort: number;
  let smtp: MailCatcher | undefined;
  let slow: WebhookReceiver;
  let deadUrl: string;
  let tenant: WebhookTenant;
  const secret = newWebhookSecret();

  beforeAll(async () => {
    smtpPort = await freePort();
    deadUrl = `http://127.0.0.1:${await freePort()}/hooks`;
    slow = await startWebhookReceiver(secret, (n) => (n === 1 ? 'hang' : 200));
    server = await startTestServer({
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      DELIVERY_RETRY_SCHEDULE: '1',
      // A 7.2-second retry window: long enough for a retry or two, short enough to watch a delivery give up.
      DELIVERY_RETRY_HOURS: '0.002',
      // Long enough that a loaded machine's prompt 200 is not a timeout; the hung first attempt still times out.
      WEBHOOK_TIMEOUT_MS: '1500',
      ALLOW_HTTP_WEBHOOKS: 'true',
    });
    tenant = await seedTenantWithWebhooks(server, 'Acme', [
      { url: slow.url, secret, events: ['ticket.closed'] },
      { url: deadUrl, secret, events: ['ticket.closed'] },
    ]);
    await server
      .client(tenant.ownerKey)
      .platform.tickets.manage({ platformId: tenant.platformId, ticketId: tenant.ticketId, status: 'closed' });
  });
  afterAll(async () => {
    await server?.close();
    await slow?.close();
    await smtp?.close();
  });

  const delivery = async (url: string) =>
    (
      await sql(
        server.databaseUrl,
        'select d.* from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where e.url = $1',
        [url],
      )
    )[0]!;

  it('retries a receiver that timed out, and delivers with the same webhook-id', async () => {
    await expect.poll(async () => (await delivery(slow.url)).status, { timeout: 6000 }).toBe('delivered');
    expect(slow.received.length).toBeGreaterThanOrEqual(2);
    expect(new Set(slow.received.map((hit) => hit.headers['webhook-id']))).toEqual(
      new Set([slow.received[0]!.headers['webhook-id']]),
    );
    const attempts = await sql(
      server.databaseUrl,
      'select attempt, status_code, error from webhook_attempts where delivery_id = $1 order by attempt',
      [(await delivery(slow.url)).id],
    );
    expect(attempts[0]).toEqual({ attempt: 1, status_code: null, error: 'timed out after 1500 ms' });
    expect(attempts.at(-1)).toEqual({ attempt: attempts.length, status_code: 200, error: null });
    slow.release();
  });

  it('retries an email while the SMTP server is down and sends it once it is back', async () => {
    const email = async () => (await sql(server.databaseUrl, 'select * from outbound_emails'))[0]!;
    await expect.poll(async () => (await email()).attempts, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    expect(await email()).toMatchObject({ status: 'pending', last_error: expect.stringMatching(/ECONNREFUSED/) });
    smtp = await startMailCatcher(smtpPort);
    await expect.poll(async () => (await email()).status, { timeout: 6000 }).toBe('sent');
    expect(smtp.mails).toHaveLength(1);
    expect((await email()).attempts).toBeGreaterThanOrEqual(2);
  });

  it('keeps a delivery log for a refused endpoint and gives up when the retry window is over', async () => {
    await expect.poll(async () => (await delivery(deadUrl)).status, { timeout: 15_000, interval: 250 }).toBe('failed');
    const dead = await delivery(deadUrl);
    expect(dead).toMatchObject({
      last_status_code: null,
      last_error: expect.stringMatching(/ECONNREFUSED/),
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(dead.attempts).toBeGreaterThanOrEqual(3);
    const attempts = await sql<{ attempt: number }>(
      server.databaseUrl,
      'select attempt from webhook_attempts where delivery_id = $1 order by attempt',
      [dead.id],
    );
    expect(attempts.map((a) => a.attempt)).toEqual(Array.from({ length: dead.attempts }, (_, i) => i + 1));
  });
});

describe('mail without SMTP_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DELIVERY_RETRY_SCHEDULE: '1' });
  });
  afterAll(() => server?.close());

  it('is logged and recorded as sent by the log transport', async () => {
    const tenant = await seedTenantWithWebhooks(server, 'Quiet', []);
    await server
      .client(tenant.ownerKey)
      .platform.tickets.manage({ platformId: tenant.platformId, ticketId: tenant.ticketId, status: 'closed' });
    const email = async () =>
      (await sql(server.databaseUrl, 'select status, transport, attempts, subject from outbound_emails'))[0];
    await expect.poll(async () => (await email())?.status, { timeout: 5000 }).toBe('sent');
    expect(await email()).toMatchObject({
      transport: 'log',
      attempts: 1,
      subject: expect.stringMatching(/^\[TK-[0-9A-Z]{8}\] Your ticket "Cannot log in" has been closed$/),
    });
  });
});
