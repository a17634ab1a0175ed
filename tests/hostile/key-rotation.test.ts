import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../apps/server/src/kit/secrets.js';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { runCli } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../helpers/receivers.js';
import { connectChannel, SECRETS_KEY as OLD_KEY, type ConnectedChannel } from '../whatsapp-inbound/inbound-fixture.js';

/**
 * SECRETS_KEY rotation (issue #31): the new key with the old one in SECRETS_KEY_PREVIOUS starts and reads every
 * stored secret; `pnpm cli secrets rekey` moves them to the new key; then the old key can go.
 */
describe('rotating SECRETS_KEY', { timeout: 1_500_000 }, () => {
  const NEW_KEY = randomBytes(32).toString('base64');
  const oldKeyId = createSecretBox(OLD_KEY).keyId;
  const newKeyId = createSecretBox(NEW_KEY).keyId;
  const servers: TestServer[] = [];
  let receiver: WebhookReceiver;
  let databaseUrl: string;
  let tenant: Tenant;
  let channel: ConnectedChannel;
  let endpointSecret: string;

  const start = async (env: Record<string, string>) => {
    const server = await startTestServer({ DATABASE_URL: databaseUrl, ALLOW_HTTP_WEBHOOKS: 'true', ...env });
    servers.push(server);
    return server;
  };
  const stop = async (server: TestServer) => {
    servers.splice(servers.indexOf(server), 1);
    await server.close();
  };
  /** A Meta POST signed with the channel's app secret: 200 only if the server could open the stored secret. */
  const postSigned = async (server: TestServer) => {
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const signature = `sha256=${createHmac('sha256', channel.appSecret).update(body).digest('hex')}`;
    const reply = await fetch(`${server.baseUrl}/webhooks/whatsapp/${channel.channelId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body,
    });
    return reply.status;
  };
  const keyIdsStored = async () =>
    (
      await sql<{ key_id: string }>(
        databaseUrl,
        `select distinct split_part(value, '.', 2) as key_id from (
           select secret_ciphertext as value from webhook_endpoints
           union all select access_token_ciphertext from whatsapp_connections
           union all select app_secret_ciphertext from whatsapp_connections
           union all select verify_token_ciphertext from whatsapp_connections) stored`,
      )
    ).map((row) => row.key_id);

  afterAll(async () => {
    for (const server of servers.splice(0)) await server.close();
    await receiver?.close();
  });

  it('stores secrets under the old key', async () => {
    databaseUrl = await createFreshDatabase();
    receiver = await startWebhookReceiver(newWebhookSecret());
    const server = await start({ SECRETS_KEY: OLD_KEY });
    tenant = await createTenant(server, 'Rotating');
    const created = await server.client(tenant.ownerKey).platform.webhooks.manage({
      platformId: tenant.platformId,
      url: receiver.url,
      events: ['ticket.closed'],
    });
    endpointSecret = (created.data as { secret: string }).secret;
    channel = await connectChannel({ em: server.database.orm.em.fork() }, tenant.mainChannelId);
    expect(await keyIdsStored()).toEqual([oldKeyId]);
    await stop(server);
  });

  it('restarts with the new key and the old one as previous, and reads every stored secret', async () => {
    const server = await start({
      SECRETS_KEY: NEW_KEY,
      SECRETS_KEY_PREVIOUS: `${randomBytes(32).toString('base64')},${OLD_KEY}`,
    });
    expect(await postSigned(server)).toBe(200);
    await server.client(tenant.ownerKey).platform.tickets.manage({
      platformId: tenant.platformId,
      ticketId: tenant.ids.tickets!.t1!.id,
      status: 'closed',
    });
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    const { Webhook } = await import('standardwebhooks');
    const hit = receiver.received[0]!;
    expect(() => new Webhook(endpointSecret).verify(hit.body, hit.headers as Record<string, string>)).not.toThrow();

    const env = { DATABASE_URL: databaseUrl, SECRETS_KEY: NEW_KEY, SECRETS_KEY_PREVIOUS: OLD_KEY };
    const rekey = await runCli(['secrets', 'rekey'], env);
    expect(rekey.code, rekey.stderr).toBe(0);
    expect(JSON.parse(rekey.stdout)).toEqual({
      keyId: newKeyId,
      webhookEndpoints: { rekeyed: 1, current: 0 },
      whatsappChannels: { rekeyed: 3, current: 0 },
    });
    expect(await keyIdsStored()).toEqual([newKeyId]);
    const again = await runCli(['secrets', 'rekey'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({
      webhookEndpoints: { rekeyed: 0, current: 1 },
      whatsappChannels: { rekeyed: 0, current: 3 },
    });
    await stop(server);
  });

  it('after the rekey, starts with the new key alone', async () => {
    const server = await start({ SECRETS_KEY: NEW_KEY });
    expect(await postSigned(server)).toBe(200);
  });
});
