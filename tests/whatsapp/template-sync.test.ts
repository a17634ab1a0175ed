import { afterAll, describe, expect } from 'vitest';
import { requestTemplateSync } from '../../apps/server/src/modules/whatsapp/index.js';
import { sql } from '../helpers/database.js';
import { expectError } from '../helpers/expect.js';
import { graphError, startGraphStandIn } from '../helpers/graph-stand-in.js';
import { runCli } from '../helpers/processes.js';
import { test as base } from '../helpers/test.js';
import { postSigned } from '../whatsapp-inbound/inbound-fixture.js';
import {
  META_TEMPLATES,
  SECRETS_KEY,
  template,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
} from './whatsapp-fixtures.js';

const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: META_TEMPLATES() },
  // Eight templates, three to a page: every sync follows the cursor over three pages.
  maxPageSize: 3,
});
afterAll(() => graph.close());

const LISTING = `/v23.0/${account.wabaId}/message_templates`;
/** Listing runs so far: each starts with a first page (no `after` cursor). */
const listingRuns = () =>
  graph.requests.filter((request) => request.path === LISTING && request.query.after === undefined).length;

interface Row {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  body: string;
  variable_count: number;
}

const test = base
  .extend('wa', { scope: 'file' }, async ({ server }) =>
    whatsAppTenantIds(await server.seed(whatsAppTenantSeed(account))),
  )
  .extend(
    'stored',
    ({ server, wa }) =>
      async () =>
        sql<Row>(
          server.databaseUrl,
          'select id, name, language, status, category, body, variable_count from templates where channel_id = $1 ' +
            'order by name, language',
          [wa.waChannelId],
        ),
  )
  .extend(
    'sync',
    ({ server, wa }) =>
      (channelId = wa.waChannelId) =>
        server.client(wa.ownerKey).workspace.chat.templates.sync({ channelId }),
  );
test.override('serverEnv', { SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url, TEMPLATE_SYNC_MINUTES: '0' });

const summary = (rows: Row[]) => rows.map((row) => `${row.name}/${row.language}:${row.status}`);

describe('template sync', () => {
  test('connecting pulls every page of the account’s templates and maps their status', async ({
    server,
    wa,
    stored,
  }) => {
    const pages = graph.requests.filter((request) => request.path === LISTING);
    expect(pages.map((page) => page.query.after === undefined)).toEqual([true, false, false]);
    expect(pages.every((page) => page.authorization === `Bearer ${account.accessToken}`)).toBe(true);
    const rows = await stored();
    // Every review state is stored; chat/templates/list lists the approved ones unless asked for others.
    expect(summary(rows)).toEqual([
      'appeal/en_US:in_appeal',
      'disabled_one/en_US:disabled',
      'order_update/en_US:approved',
      'order_update/es_ES:approved',
      'paused_one/en_US:paused',
      'promo/en_US:pending',
      'rejected_one/en_US:rejected',
      'welcome/en_US:approved',
    ]);
    expect(rows.find((row) => row.language === 'es_ES')).toMatchObject({
      category: 'UTILITY',
      body: 'Hola {{1}}, pedido {{2}} enviado.',
      variable_count: 2,
    });
    const listed = await server.client(wa.ownerKey).workspace.chat.templates.list({ channelId: wa.waChannelId });
    expect(listed.data.map((t) => `${t.name}/${t.language}`)).toEqual([
      'order_update/en_US',
      'order_update/es_ES',
      'welcome/en_US',
    ]);
  });

  test('chat/templates/sync replaces the channel’s templates with Meta’s: changed, added, removed, paused', async ({
    server,
    wa,
    stored,
    sync,
  }) => {
    const before = await stored();
    const broadcasts = server.client(wa.ownerKey).workspace.broadcasts;
    const scheduled = (language: string) =>
      broadcasts.manage({
        channelId: wa.waChannelId,
        action: 'create',
        name: `Later ${language}`,
        templateName: 'order_update',
        language,
        variables: ['{{contact.name}}', 'A-1'],
        audience: { all: true },
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
    const [spanish, english] = [(await scheduled('es_ES')).data, (await scheduled('en_US')).data];
    graph.templates[account.wabaId] = [
      template('order_update'),
      template('order_update', 'PAUSED', 'Hola {{1}}', 'es_ES'),
      template('promo', 'APPROVED', 'Sale: {{1}} off', 'en_US', 'MARKETING'),
      template('appeal', 'REJECTED', 'Appeal {{1}}'),
      template('shipping', 'APPROVED', 'Your parcel {{1}} ships {{2}} via {{3}}'),
      template('rejected_one', 'DISABLED', 'No {{1}}'),
    ];
    const runs = listingRuns();
    const reply = await sync();
    expect(reply).toEqual({
      success: true,
      message: 'Templates synced from WhatsApp',
      data: { synced: 6, approved: 3 },
    });
    expect(listingRuns()).toBe(runs + 1);
    const after = await stored();
    expect(summary(after)).toEqual([
      'appeal/en_US:rejected',
      'order_update/en_US:approved',
      'order_update/es_ES:paused',
      'promo/en_US:approved',
      'rejected_one/en_US:disabled',
      'shipping/en_US:approved',
    ]);
    expect(after.find((row) => row.name === 'shipping')).toMatchObject({ variable_count: 3 });
    expect(after.find((row) => row.name === 'promo')).toMatchObject({ body: 'Sale: {{1}} off', category: 'MARKETING' });
    // A template that stays keeps its id (upserted by channel, name and language).
    const id = (rows: Row[], name: string) => rows.find((row) => row.name === name && row.language === 'en_US')!.id;
    expect(id(after, 'order_update')).toBe(id(before, 'order_update'));
    expect(id(after, 'promo')).toBe(id(before, 'promo'));
    // The paused template's broadcast paused, as Meta's webhook would have paused it; the other language's did not.
    const listed = (await broadcasts.list({ channelId: wa.waChannelId })).data;
    expect(listed.find((b) => b.id === spanish.id)).toMatchObject({
      status: 'paused',
      pausedReason: 'template_paused',
    });
    expect(listed.find((b) => b.id === english.id)).toMatchObject({ status: 'scheduled', pausedReason: null });
  });

  test('a refused or failed sync changes nothing and answers like a refused send', async ({ stored, sync }) => {
    const before = await stored();
    graph.templates[account.wabaId] = [template('order_update')];
    graph.replyOnce({
      status: 401,
      body: graphError(190, 'Error validating access token: The user has not authorized application', {
        error_subcode: 458,
      }),
    });
    await expectError(sync(), 502, 'provider_unauthorized', /while listing the templates: .*\(code 190, subcode 458\)/);
    // Page two fails: nothing of page one is stored either.
    graph.templates[account.wabaId] = Array.from({ length: 5 }, (_, i) => template(`t${i}`));
    graph.replyOnce({
      match: (request) => request.query.after !== undefined,
      status: 500,
      body: graphError(1, 'An unknown error occurred'),
    });
    const failure = await expectError(
      sync(),
      503,
      'provider_unavailable',
      /listing the templates: An unknown error occurred \(code 1\)/,
    );
    expect(failure.retryAfter).toBe(30);
    expect(await stored()).toEqual(before);
  });

  test('a sandbox channel has nothing to sync: 0 synced, its approved count, and no call to Meta', async ({
    wa,
    sync,
  }) => {
    const before = graph.requests.length;
    expect(await sync(wa.sandboxChannelId)).toEqual({
      success: true,
      message: 'Sandbox channel: templates come from the seed file; nothing to sync',
      data: { synced: 0, approved: 1 },
    });
    expect(graph.requests.length).toBe(before);
  });

  test(
    'requestTemplateSync queues a durable sync inside the caller’s transaction: it runs once committed, never ' +
      'when rolled back',
    async ({ server, wa, stored }) => {
      graph.templates[account.wabaId] = [template('after_webhook'), template('welcome', 'APPROVED', 'Welcome back!')];
      const runs = listingRuns();
      const em = server.database.orm.em.fork();
      await em
        .transactional(async (tx) => {
          await requestTemplateSync({ em: tx }, server.jobs, wa.waChannelId);
          throw new Error('rolled back');
        })
        .catch((error: Error) => expect(error.message).toBe('rolled back'));
      await em.transactional((tx) => requestTemplateSync({ em: tx }, server.jobs, wa.waChannelId));
      await expect
        .poll(async () => summary(await stored()), { timeout: 20_000, interval: 200 })
        .toEqual(['after_webhook/en_US:approved', 'welcome/en_US:approved']);
      expect(listingRuns()).toBe(runs + 1);
    },
  );

  test('Meta’s template review webhook syncs the channel’s templates at once', async ({ server, wa, stored }) => {
    graph.templates[account.wabaId] = [template('just_approved')];
    const runs = listingRuns();
    const review = {
      event: 'APPROVED',
      message_template_id: 1234,
      message_template_name: 'just_approved',
      message_template_language: 'en_US',
      reason: null,
    };
    const body = {
      object: 'whatsapp_business_account',
      entry: [{ id: account.wabaId, changes: [{ field: 'message_template_status_update', value: review }] }],
    };
    const reply = await postSigned(server.baseUrl, { channelId: wa.waChannelId, ...account }, body);
    expect(reply.status).toBe(200);
    await expect
      .poll(async () => summary(await stored()), { timeout: 20_000, interval: 200 })
      .toEqual(['just_approved/en_US:approved']);
    expect(listingRuns()).toBe(runs + 1);
  });

  test(
    '`pnpm cli templates sync --channel` pulls now and prints the counts; a sandbox channel is an error',
    { timeout: 120_000 },
    async ({ server, wa }) => {
      graph.templates[account.wabaId] = META_TEMPLATES();
      const env = { DATABASE_URL: server.databaseUrl, SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url };
      const synced = await runCli(['templates', 'sync', '--channel', wa.waChannelId], env);
      expect(synced.code, synced.stderr).toBe(0);
      expect(JSON.parse(synced.stdout)).toEqual({ channelId: wa.waChannelId, synced: 8, approved: 3 });
      const sandbox = await runCli(['templates', 'sync', '--channel', wa.sandboxChannelId], env);
      expect(sandbox.code).toBe(1);
      expect(sandbox.stderr).toContain(
        `Channel ${wa.sandboxChannelId} uses the sandbox provider: its templates come from the seed file, there is ` +
          `nothing to sync.`,
      );
      const refused = await runCli(['templates', 'sync', '--channel', wa.waChannelId], { ...env, SECRETS_KEY: '' });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('SECRETS_KEY is not set, but WhatsApp Cloud API channels exist');
    },
  );
});
