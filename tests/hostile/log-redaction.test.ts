import { createClient } from '@switchboard/client';
import { createLogger, loadConfig, migrate, openDatabase, seed } from '@switchboard/server';
import { afterAll, describe, expect, test } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { spawnServer } from '../helpers/processes.js';
import { sealingServices } from '../helpers/secrets-key.js';
import { PASSWORD, PortalAgent } from '../portal/portal-helpers.js';
import {
  FILES,
  MEDIA_IDS,
  connected,
  metaMessage,
  nextMsgid,
  postMessages,
} from '../whatsapp-inbound/inbound-media-fixture.js';
import {
  credentialsOf,
  SECRETS_KEY,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
} from '../whatsapp/whatsapp-fixtures.js';

/**
 * Issue #31 §1: no secret in any log line, at any level. The built server runs as a container runs it, logging at
 * `trace` to a pipe this test reads; a session then does everything that handles a secret (portal sign-in, a media
 * link opened, a webhook secret created and rotated, a WhatsApp channel connected against the Graph stand-in), and
 * every line it logged is searched for each secret. Before the fix the request log wrote every reply header (the
 * portal's `Set-Cookie`) and each media link's path with its token; then (issue #38) a link opened as `/MEDIA/<token>`,
 * which Express routes like `/media/`, still had its token logged.
 */
const account = whatsAppAccount('Acme Support');
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: [] },
  media: { [MEDIA_IDS.photo]: FILES.photo },
});
afterAll(() => graph.close());

async function seededTenant(databaseUrl: string) {
  const database = await openDatabase(
    loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SECRETS_KEY }),
    createLogger('silent'),
    2,
  );
  try {
    await migrate(database.orm);
    // The WhatsApp channel starts as a sandbox one: the session below connects it through the portal.
    const file = whatsAppTenantSeed(account, PASSWORD);
    delete file.channels![0]!.provider;
    const ids = await seed(database.orm.em.fork(), file, sealingServices(database.secrets));
    return { ...whatsAppTenantIds(ids), email: file.users![0]!.email };
  } finally {
    await database.close();
  }
}

describe('log redaction', () => {
  test(
    'no log line at trace level carries a session cookie, media token, webhook secret, API key or token',
    {
      timeout: 600_000,
    },
    async () => {
      const databaseUrl = await createFreshDatabase();
      const tenant = await seededTenant(databaseUrl);
      const running = spawnServer({
        DATABASE_URL: databaseUrl,
        PORT: '0',
        LOG_LEVEL: 'trace',
        SECRETS_KEY,
        WHATSAPP_GRAPH_URL: graph.url,
        TEMPLATE_SYNC_MINUTES: '0',
        PUBLIC_URL: 'https://switchboard.example.com',
        SESSION_SECRET: 'a session secret of at least thirty-two characters',
      });
      try {
        const [, port] = await running.waitFor(/"port":(\d+),[^\n]*"msg":"Switchboard listening"/, 120_000);
        const baseUrl = `http://127.0.0.1:${port}`;
        // Retries as an integrator's client would: a kept-alive socket may be closed under a request.
        const client = createClient({ baseUrl, apiKey: tenant.ownerKey, maxRetries: 2 });

        const portal = new PortalAgent(baseUrl);
        const signedIn = await portal.signIn(tenant.email, PASSWORD);
        expect(signedIn.status).toBe(303);
        const cookie = /sb_portal=([^;]+)/.exec(signedIn.setCookies.join('\n'))?.[1];
        expect(cookie).toBeDefined();
        expect((await portal.get('/developer/keys')).status).toBe(200);

        const connectPath = `/developer/channels/${tenant.waChannelId}/connect`;
        const csrf = PortalAgent.csrf((await portal.get(connectPath)).text);
        const connectedReply = await portal.post(connectPath, { _csrf: csrf, ...credentialsOf(account) });
        expect(connectedReply.status).toBe(303);

        const photo = nextMsgid();
        const image = { image: { id: MEDIA_IDS.photo, mime_type: 'image/jpeg' } };
        const inbound = await postMessages(baseUrl, connected(account, tenant.waChannelId), [
          metaMessage(photo, 'image', image),
        ]);
        expect(inbound.status).toBe(200);
        // The inbound job stores the message; chat/media/get answers once it is there.
        await expect
          .poll(async () => (await client.workspace.chat.media.get({ msgid: photo }).catch(() => undefined))?.success)
          .toBe(true);
        const link = (await client.workspace.chat.media.get({ msgid: photo })).data.url;
        const mediaToken = new URL(link).pathname.split('/').pop()!;
        const opened = await fetch(`${baseUrl}${new URL(link).pathname}?token=${mediaToken}`);
        expect(opened.status).toBe(200);
        expect(Buffer.from(await opened.arrayBuffer())).toEqual(FILES.photo.bytes);
        // Express matches paths whatever their case: the link opens as /MEDIA/… too, and its log line is cut alike.
        for (const prefix of ['/MEDIA/', '/Media/']) {
          const shouted = await fetch(`${baseUrl}${prefix}${mediaToken}`);
          expect(shouted.status).toBe(200);
          await shouted.arrayBuffer();
        }

        const manage = client.platform.webhooks.manage;
        const created = await manage({
          platformId: tenant.platformId,
          url: 'https://hooks.example.com/switchboard',
          events: ['ticket.closed'],
        });
        const endpoint = created.data as { id: string; secret: string };
        const rotated = await manage({ platformId: tenant.platformId, endpointId: endpoint.id, rotateSecret: true });
        const rotatedSecret = (rotated.data as { secret: string }).secret;
        expect(rotatedSecret).not.toBe(endpoint.secret);

        const secrets = {
          'portal session cookie': cookie!,
          'portal session cookie, decoded': decodeURIComponent(cookie!),
          'media link token': mediaToken,
          'webhook secret': endpoint.secret,
          'rotated webhook secret': rotatedSecret,
          'API key': tenant.ownerKey,
          'WhatsApp access token': account.accessToken,
          'WhatsApp app secret': account.appSecret,
        };
        // A request's line is written after its reply: wait for the last one before reading.
        const manageLines = () => running.output().match(/"url":"\/api\/platform\/v1\/webhooks\/manage"/g)?.length;
        await expect.poll(manageLines).toBe(2);
        const lines = running.output().split('\n').filter(Boolean);
        expect(lines.length).toBeGreaterThan(10);
        const leaks = Object.entries(secrets).flatMap(([what, secret]) =>
          lines.filter((line) => line.includes(secret)).map((line) => `${what}: ${line}`),
        );
        expect(leaks).toEqual([]);
        // The redacted forms are still there, so the requests themselves were logged.
        expect(lines.some((line) => line.includes('"url":"/media/[redacted]?token=[redacted]"'))).toBe(true);
        expect(lines.some((line) => line.includes('"url":"/MEDIA/[redacted]"'))).toBe(true);
        expect(lines.some((line) => line.includes('"url":"/Media/[redacted]"'))).toBe(true);
      } finally {
        running.child.kill('SIGTERM');
        await running.exited;
      }
    },
  );
});
