import { randomUUID } from 'node:crypto';
import { SeedError, type SeedFile } from '@switchboard/server';
import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { runCli } from '../helpers/processes.js';
import { test as base } from '../helpers/test.js';
import { createPortalTenant, PASSWORD, PortalAgent } from '../portal/portal-helpers.js';
import {
  credentialsOf,
  META_TEMPLATES,
  SECRETS_KEY,
  secretsOf,
  template,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
  type WhatsAppAccount,
} from './whatsapp-fixtures.js';

const good = whatsAppAccount('Acme Support');
const other = whatsAppAccount('Acme Sales');
const graph = await startGraphStandIn({
  accessTokens: [good.accessToken, other.accessToken],
  phoneNumbers: [good, other],
  templates: { [good.wabaId]: META_TEMPLATES(), [other.wabaId]: [template('sales_only', 'APPROVED', 'Hi {{1}}')] },
});
afterAll(() => graph.close());

const PUBLIC_URL = 'https://switchboard.example.com';
const webhookUrl = (channelId: string) => `${PUBLIC_URL}/webhooks/whatsapp/${channelId}`;
const REFUSED_TOKEN = new RegExp(
  "WhatsApp Cloud API refused the channel's credentials while checking the phone number: " +
    String.raw`Error validating access token: .* \(code 190, subcode 467\)`,
);

const test = base
  .extend(
    'connection',
    ({ server }) =>
      async (channelId: string) =>
        (
          await sql(
            server.databaseUrl,
            'select row_to_json(c)::jsonb as row from whatsapp_connections c where channel_id = $1',
            [channelId],
          )
        )[0]?.row as Record<string, string> | undefined,
  )
  .extend(
    'provider',
    ({ server }) =>
      async (channelId: string) =>
        (await sql(server.databaseUrl, 'select provider from channels where id = $1', [channelId]))[0]!
          .provider as string,
  )
  .extend(
    'cli',
    ({ server }) =>
      (args: string[], env: Record<string, string> = {}) =>
        runCli(args, {
          DATABASE_URL: server.databaseUrl,
          SECRETS_KEY,
          WHATSAPP_GRAPH_URL: graph.url,
          PUBLIC_URL,
          ...env,
        }),
  )
  // A platform with a WhatsApp channel and a sandbox one, whose owner can use the portal; and that owner signed in.
  .extend('portal', { scope: 'file' }, async ({ server }) => {
    const file = whatsAppTenantSeed(good, PASSWORD);
    return { ...whatsAppTenantIds(await server.seed(file)), email: file.users![0]!.email };
  })
  .extend('owner', async ({ server, portal }) => {
    const agent = new PortalAgent(server.baseUrl);
    expect((await agent.signIn(portal.email, PASSWORD)).status).toBe(303);
    return agent;
  });
test.override('serverEnv', { SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url, TEMPLATE_SYNC_MINUTES: '0', PUBLIC_URL });

/** The plain columns hold what Graph reported; the secrets only as ciphertexts that contain none of them. */
function expectStored(row: Record<string, string> | undefined, account: WhatsAppAccount) {
  expect(row).toMatchObject({
    phone_number_id: account.phoneNumberId,
    waba_id: account.wabaId,
    display_phone_number: account.displayPhoneNumber,
    verified_name: account.verifiedName,
    access_token_ciphertext: expect.stringMatching(/^v1\./),
    app_secret_ciphertext: expect.stringMatching(/^v1\./),
    verify_token_ciphertext: expect.stringMatching(/^v1\./),
  });
  for (const secret of secretsOf(account)) expect(JSON.stringify(row)).not.toContain(secret);
}

const seedWith = (provider: unknown, extra: Partial<SeedFile> = {}): SeedFile => {
  const file = whatsAppTenantSeed(good);
  return { ...file, channels: [{ ...file.channels![0]!, provider: provider as never }], templates: [], ...extra };
};

/** The CLI's own message: `pnpm cli` builds first and reports that on stderr too. */
const lastLine = (text: string) => text.trim().split('\n').at(-1);

async function seedError(call: Promise<unknown>): Promise<SeedError> {
  const error = await call.then(
    () => expect.fail('expected a seed error'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeedError);
  return error as SeedError;
}

describe('connecting a channel from the seed file', () => {
  test('checks the credentials with Meta, stores secrets encrypted, switches the channel, pulls its templates', async ({
    server,
    connection,
    provider,
  }) => {
    const before = graph.requests.length;
    const wa = whatsAppTenantIds(await server.seed(whatsAppTenantSeed(good)));
    expect(graph.requests[before]).toMatchObject({
      method: 'GET',
      path: `/v23.0/${good.phoneNumberId}`,
      query: { fields: 'display_phone_number,verified_name' },
      authorization: `Bearer ${good.accessToken}`,
    });
    expect(await provider(wa.waChannelId)).toBe('whatsapp_cloud');
    expect(await provider(wa.sandboxChannelId)).toBe('sandbox');
    expectStored(await connection(wa.waChannelId), good);
    const listed = await server.client(wa.ownerKey).workspace.chat.templates.list({ channelId: wa.waChannelId });
    expect(listed.total).toBe(3);
  });

  test('a refused token is a seed error at the provider’s path, and nothing of the file is stored', async ({
    server,
  }) => {
    const file = seedWith({ type: 'whatsapp_cloud', ...credentialsOf(good), accessToken: 'EAAGnot-a-valid-token' });
    const error = await seedError(server.seed(file));
    expect(error.message).toMatch(new RegExp(`^channels\\[0\\]\\.provider: ${REFUSED_TOKEN.source}$`));
    expect(error.message).not.toContain('EAAGnot-a-valid-token');
    expect(
      await sql(server.databaseUrl, 'select id from platforms where domain = $1', [file.platforms![0]!.domain]),
    ).toEqual([]);
  });

  test(
    'a business account Meta does not know is a seed error too (the templates are pulled before anything is ' +
      'stored)',
    async ({ server }) => {
      const error = await seedError(
        server.seed(seedWith({ type: 'whatsapp_cloud', ...credentialsOf(good), wabaId: '999' })),
      );
      expect(error.message).toMatch(
        new RegExp(
          String.raw`^channels\[0\]\.provider: WhatsApp Cloud API rejected the request while listing the templates: ` +
            String.raw`.*Object with ID '999' does not exist.* \(code 100, subcode 33\)$`,
        ),
      );
    },
  );

  test('a malformed provider entry names its field and asks Meta nothing', async ({ server }) => {
    const before = graph.requests.length;
    const badId = await seedError(
      server.seed(seedWith({ type: 'whatsapp_cloud', ...credentialsOf(good), phoneNumberId: '+1 555' })),
    );
    expect(badId.message).toBe(
      'channels[0].provider.phoneNumberId: must be the phone number ID as Meta shows it: digits only',
    );
    const missing = await seedError(
      server.seed(seedWith({ type: 'whatsapp_cloud', phoneNumberId: good.phoneNumberId })),
    );
    expect(missing.message).toMatch(/^channels\[0\]\.provider\.wabaId: /);
    const unknown = await seedError(server.seed(seedWith('whatsapp')));
    expect(unknown.message).toMatch(/^channels\[0\]\.provider: must be "sandbox" or \{"type": "whatsapp_cloud"/);
    expect(graph.requests.length).toBe(before);
  });

  test('refuses seeded templates for a WhatsApp channel: they come from Meta', async ({ server }) => {
    const file = whatsAppTenantSeed(good);
    const error = await seedError(
      server.seed({
        ...file,
        templates: [
          { channel: 'wa', name: 'local', category: 'UTILITY', language: 'en_US', status: 'approved', body: 'Hi' },
        ],
      }),
    );
    expect(error.message).toBe(
      'templates[0].channel: this channel uses the WhatsApp Cloud API: its templates come from Meta (pulled when it ' +
        'is connected)',
    );
  });
});

describe('connecting a channel with `pnpm cli channel connect`', { timeout: 120_000 }, () => {
  const flags = (account: WhatsAppAccount, overrides: Record<string, string> = {}) => {
    const values = { ...credentialsOf(account), ...overrides };
    return [
      '--phone-number-id',
      values.phoneNumberId,
      '--waba-id',
      values.wabaId,
      '--access-token',
      values.accessToken,
      '--app-secret',
      values.appSecret,
      '--verify-token',
      values.verifyToken,
    ];
  };

  test('connects, prints the channel’s webhook URL as JSON and never a secret; connecting again rotates', async ({
    server,
    acme,
    cli,
    connection,
    provider,
  }) => {
    const channelId = acme.secondChannelId;
    const connected = await cli(['channel', 'connect', '--channel', channelId, ...flags(good)]);
    expect(connected.code, connected.stderr).toBe(0);
    expect(JSON.parse(connected.stdout)).toEqual({
      channelId,
      provider: 'whatsapp_cloud',
      phoneNumberId: good.phoneNumberId,
      wabaId: good.wabaId,
      appId: null,
      displayPhoneNumber: good.displayPhoneNumber,
      verifiedName: 'Acme Support',
      webhookUrl: webhookUrl(channelId),
      templates: { synced: 8, approved: 3 },
    });
    for (const secret of secretsOf(good)) expect(connected.stdout + connected.stderr).not.toContain(secret);
    expect(await provider(channelId)).toBe('whatsapp_cloud');
    const first = await connection(channelId);
    expectStored(first, good);
    // The sandbox templates it had are replaced by the business account's.
    const list = () => server.client(acme.ownerKey).workspace.chat.templates.list({ channelId });
    expect((await list()).data.map((t) => t.name)).toEqual(['order_update', 'order_update', 'welcome']);

    // The app ID is optional; given, it is kept for uploading template header samples.
    const withAppId = [...flags(other), '--app-id', '4455667788'];
    const rotated = await cli(['channel', 'connect', '--channel', channelId, ...withAppId]);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toMatchObject({
      appId: '4455667788',
      verifiedName: 'Acme Sales',
      templates: { synced: 1, approved: 1 },
    });
    const second = await connection(channelId);
    expectStored(second, other);
    expect([first!.app_id, second!.app_id]).toEqual([null, '4455667788']);
    expect(second!.id).toBe(first!.id);
    expect((await list()).data.map((t) => t.name)).toEqual(['sales_only']);
  });

  test('a refusal exits 1 with Meta’s reason and stores nothing', async ({ acme, cli, connection, provider }) => {
    const channelId = acme.mainChannelId;
    const refused = await cli([
      'channel',
      'connect',
      '--channel',
      channelId,
      ...flags(good, { accessToken: 'EAAGrevoked-token' }),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(REFUSED_TOKEN);
    expect(refused.stderr + refused.stdout).not.toContain('EAAGrevoked-token');
    expect(await provider(channelId)).toBe('sandbox');
    expect(await connection(channelId)).toBeUndefined();

    const badOption = await cli(['channel', 'connect', '--channel', channelId, ...flags(good, { wabaId: 'acme' })]);
    expect([badOption.code, lastLine(badOption.stderr)]).toEqual([
      1,
      '--waba-id must be the WhatsApp Business Account ID as Meta shows it: digits only.',
    ]);
    const badAppId = await cli(['channel', 'connect', '--channel', channelId, ...flags(good), '--app-id', 'acme-app']);
    expect([badAppId.code, lastLine(badAppId.stderr)]).toEqual([
      1,
      '--app-id must be the app ID as Meta shows it: digits only.',
    ]);
    const noKey = await cli(['channel', 'connect', '--channel', channelId, ...flags(good)], { SECRETS_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/SECRETS_KEY/);
    const nowhere = randomUUID();
    const unknown = await cli(['channel', 'connect', '--channel', nowhere, ...flags(good)]);
    expect([unknown.code, lastLine(unknown.stderr)]).toEqual([1, `No channel ${nowhere}.`]);
    expect(await connection(channelId)).toBeUndefined();
  });
});

describe('connecting a channel in the Developer Portal', () => {
  test(
    'lists the platform’s channels with their provider, the callback URL and the verify token, never the other ' +
      'secrets',
    async ({ owner, portal }) => {
      const page = await owner.get('/developer/channels');
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.text).toContain('WhatsApp line');
      expect(page.text).toContain('Sandbox line');
      expect(page.text).toContain('WhatsApp Cloud API');
      expect(page.text).toContain(`value="${webhookUrl(portal.waChannelId)}"`);
      expect(page.text).toContain(`value="${good.verifyToken}"`);
      expect(page.text).toContain(good.displayPhoneNumber);
      expect(page.text).not.toContain(good.accessToken);
      expect(page.text).not.toContain(good.appSecret);
      expect(page.text).toContain(`/developer/channels/${portal.sandboxChannelId}/connect`);
      // Each channel's quality and tier, and its templates with their review state and quality.
      expect(page.text).toContain('Quality: <span class="badge revoked">unknown</span>');
      expect(page.text).toContain('Messaging tier: <code>not reported yet</code>');
      expect(page.text).toMatch(/<td>hello<\/td><td>en_US<\/td>\s*<td><span class="badge active">approved<\/span>/);
    },
  );

  test('refuses what Meta refuses, stores nothing and never sends a secret back', async ({
    owner,
    portal,
    provider,
    connection,
  }) => {
    const path = `/developer/channels/${portal.sandboxChannelId}/connect`;
    const form = await owner.get(path);
    expect(form.status).toBe(200);
    const csrf = PortalAgent.csrf(form.text);
    const typed = {
      ...credentialsOf(other),
      accessToken: 'EAAGportal-revoked',
      appSecret: 'portal-app-secret-typed',
      verifyToken: 'portal-verify-typed',
    };
    const refused = await owner.post(path, { _csrf: csrf, ...typed });
    expect(refused.status).toBe(502);
    expect(refused.text).toContain('Nothing was stored.');
    expect(refused.text).toContain('(code 190, subcode 467)');
    expect(refused.text).toContain(`value="${other.phoneNumberId}"`);
    for (const secret of [typed.accessToken, typed.appSecret, typed.verifyToken])
      expect(refused.text).not.toContain(secret);
    expect(await provider(portal.sandboxChannelId)).toBe('sandbox');
    expect(await connection(portal.sandboxChannelId)).toBeUndefined();

    const before = graph.requests.length;
    const invalid = await owner.post(path, {
      _csrf: csrf,
      ...credentialsOf(other),
      phoneNumberId: 'abc',
      accessToken: '',
      appId: 'my-app',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('This must be the app ID as Meta shows it: digits only.');
    expect(invalid.text).toContain('This must be the phone number ID as Meta shows it: digits only.');
    expect(invalid.text).toContain('This is required.');
    expect(graph.requests.length).toBe(before);

    expect((await owner.post(path, credentialsOf(other))).status).toBe(403);
  });

  test('connects with valid credentials and shows what to paste into Meta', async ({
    owner,
    portal,
    provider,
    connection,
  }) => {
    const path = `/developer/channels/${portal.sandboxChannelId}/connect`;
    const csrf = PortalAgent.csrf((await owner.get(path)).text);
    const connected = await owner.post(path, { _csrf: csrf, ...credentialsOf(other), appId: '5566778899' });
    expect(connected.status).toBe(303);
    expect(connected.headers.get('location')).toBe(`/developer/channels?connected=${portal.sandboxChannelId}`);
    expect(await provider(portal.sandboxChannelId)).toBe('whatsapp_cloud');
    expectStored(await connection(portal.sandboxChannelId), other);
    expect((await connection(portal.sandboxChannelId))!.app_id).toBe('5566778899');
    const page = await owner.get(connected.headers.get('location')!);
    expect(page.text).toContain('<dt>App ID</dt><dd><code>5566778899</code></dd>');
    expect(page.text).toContain(
      `Sandbox line is connected to ${other.displayPhoneNumber} (Acme Sales); 1 templates synced.`,
    );
    expect(page.text).toContain(`value="${webhookUrl(portal.sandboxChannelId)}"`);
    expect(page.text).toContain(`value="${other.verifyToken}"`);
    for (const secret of [other.accessToken, other.appSecret]) expect(page.text).not.toContain(secret);
  });

  test('another platform’s channel is 403 as in the API, and users without settings:api get the 403 page', async ({
    server,
    owner,
    acme,
  }) => {
    // The channel rule of every workspace endpoint (issue #22): a channel the user is not a member of is 403.
    expect((await owner.get(`/developer/channels/${acme.mainChannelId}/connect`)).status).toBe(403);
    expect((await owner.get('/developer/channels/not-a-uuid/connect')).status).toBe(404);
    const page = await owner.get('/developer/channels');
    expect(page.text).not.toContain(acme.mainChannelId);
    const plainTenant = await createPortalTenant(server);
    const plain = new PortalAgent(server.baseUrl);
    expect((await plain.signIn(plainTenant.plainEmail, PASSWORD)).status).toBe(303);
    for (const path of ['/developer/channels', `/developer/channels/${plainTenant.channelId}/connect`]) {
      const reply = await plain.get(path);
      expect(reply.status, path).toBe(403);
      expect(reply.text).toContain('settings:api');
    }
  });
});
