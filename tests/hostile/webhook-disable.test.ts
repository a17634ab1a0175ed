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
import { seedTenantWithWebhooks, type WebhookTenant } from '../webhooks/webhook-tenant.js';

/**
 * An endpoint that fails every attempt for WEBHOOK_DISABLE_AFTER_HOURS (24 h; a few seconds here) is disabled, its
 * platform's owner is emailed, and webhooks/manage enables it again (issue #31).
 */
describe('an endpoint that fails every attempt', { timeout: 120_000 }, () => {
  let server: TestServer;
  let mail: MailCatcher;
  let receiver: WebhookReceiver;
  let tenant: WebhookTenant;
  let answer = 500;
  const secret = newWebhookSecret();

  beforeAll(async () => {
    mail = await startMailCatcher();
    receiver = await startWebhookReceiver(secret, () => answer);
    server = await startTestServer({
      SMTP_URL: mail.url,
      ALLOW_HTTP_WEBHOOKS: 'true',
      DELIVERY_RETRY_SCHEDULE: '1',
      WEBHOOK_DISABLE_AFTER_HOURS: '0.001',
    });
    tenant = await seedTenantWithWebhooks(server, 'Failing', [
      { url: receiver.url, secret, events: ['ticket.closed'] },
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await mail?.close();
  });

  const webhooks = () => server.client(tenant.ownerKey).platform.webhooks;
  const endpoint = async () => (await webhooks().list({ platformId: tenant.platformId })).data[0]!;
  const closeTicket = async (reopenFirst = false) => {
    const tickets = server.client(tenant.ownerKey).platform.tickets;
    const ticket = { platformId: tenant.platformId, ticketId: tenant.ticketId };
    if (reopenFirst) await tickets.manage({ ...ticket, status: 'open' });
    await tickets.manage({ ...ticket, status: 'closed' });
  };

  it('is disabled, and its platform’s owner emailed once', async () => {
    await closeTicket();
    await expect.poll(async () => (await endpoint()).status, { timeout: 60_000, interval: 500 }).toBe('disabled');
    expect(await endpoint()).toMatchObject({ enabled: false, status: 'disabled' });
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    const [owner] = await sql<{ email: string }>(
      server.databaseUrl,
      `select email from users where platform_id = $1 and role = 'owner'`,
      [tenant.platformId],
    );
    await expect
      .poll(() => mail.mails.filter((m) => m.subject === `Webhook endpoint disabled: ${receiver.url}`), {
        timeout: 20_000,
      })
      .toHaveLength(1);
    const sent = mail.mails.find((m) => m.subject.startsWith('Webhook endpoint disabled'))!;
    expect(sent.to).toEqual([owner!.email]);
    expect(sent.text).toMatch(/enabled: true/);
  });

  it('receives again once webhooks/manage enables it', async () => {
    const { id } = await endpoint();
    answer = 200;
    const enabled = await webhooks().manage({ platformId: tenant.platformId, endpointId: id, enabled: true });
    expect(enabled.data).toMatchObject({ enabled: true, status: 'active' });
    const before = receiver.received.length;
    // A retry of the first close still pending at the enable may go out too (its delivery had not ended yet): the
    // new close is the event counted, once.
    const earlier = new Set(receiver.received.map((hit) => hit.headers['webhook-id']));
    await closeTicket(true);
    const newEventsAnswered = () =>
      receiver.received.filter((hit) => hit.answered === 200 && !earlier.has(hit.headers['webhook-id']));
    await expect.poll(() => newEventsAnswered().length, { timeout: 20_000 }).toBe(1);
    expect(receiver.received.length).toBeGreaterThan(before);
    expect((await endpoint()).status).toBe('active');
  });
});
