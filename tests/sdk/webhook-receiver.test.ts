import type { SwitchboardClient, SwitchboardEvent } from '@switchboard/client';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEvent, WEBHOOK_PATH, webhookApp } from '../../examples/src/webhook-receiver.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The examples' Express receiver against the real server: each delivery is signed by the server and verified by
 * the SDK, the events arrive typed, and a secret rotation (webhooks/manage's overloads) keeps them verifying.
 */
describe('a webhook endpoint made with the SDK, received by the Express example', () => {
  let server: TestServer;
  let acme: Tenant;
  let sb: SwitchboardClient;
  let receiver: Server;
  const events: SwitchboardEvent[] = [];
  /** The example's app for the secrets the receiver holds now (webhooks/manage gives them as the test goes). */
  let app = webhookApp([], (event) => void events.push(event));
  const hold = (secrets: string[]) => (app = webhookApp(secrets, (event) => void events.push(event)));

  beforeAll(async () => {
    server = await startTestServer({ ALLOW_HTTP_WEBHOOKS: 'true', DELIVERY_RETRY_SCHEDULE: '1' });
    acme = await createTenant(server, 'Acme');
    sb = server.client(acme.ownerKey);
    receiver = createServer((req, res) => app(req, res));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    receiver?.close();
    await server?.close();
  });

  const closeTicket = async (title: string) => {
    const platformId = acme.platformId;
    const created = await sb.platform.tickets.manage({ platformId, email: 'pat@example.com', title, description: 'x' });
    await sb.platform.tickets.manage({ platformId, ticketId: created.data.id, status: 'closed' });
    await expect.poll(() => events.length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    return events.splice(0);
  };

  it('delivers ticket.closed, verified and typed, to the endpoint created with its secret', async () => {
    const { port } = receiver.address() as AddressInfo;
    const created = await sb.platform.webhooks.manage({
      platformId: acme.platformId,
      url: `http://127.0.0.1:${port}${WEBHOOK_PATH}`,
      events: ['ticket.closed'],
    });
    const secret: string = created.data.secret;
    hold([secret]);
    const [event] = await closeTicket('Printer on fire');
    expect(event?.type).toBe('ticket.closed');
    expect(describeEvent(event!)).toMatch(/^ticket TK-\w+ "Printer on fire" closed$/);

    const rotated = await sb.platform.webhooks.manage({
      platformId: acme.platformId,
      endpointId: created.data.id,
      rotateSecret: true,
    });
    expect(rotated.data.secret).not.toBe(secret);
    // Receivers that already switched to the new secret verify, and so do those still on the old one.
    for (const held of [[rotated.data.secret], [secret]]) {
      hold(held);
      expect((await closeTicket('Rotated'))[0]?.type).toBe('ticket.closed');
    }

    const { data: log } = await sb.platform.webhooks.deliveries({
      platformId: acme.platformId,
      endpointId: created.data.id,
    });
    const redelivered = await sb.platform.webhooks.manage({ platformId: acme.platformId, redeliver: log[0]!.id });
    expect(redelivered.data).toMatchObject({ id: log[0]!.id, eventType: 'ticket.closed', status: 'pending' });
  });
});
