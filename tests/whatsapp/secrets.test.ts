import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { graphError, startGraphStandIn } from '../helpers/graph-stand-in.js';
import { runCli, spawnServer, type ProcessResult, type ServerProcess } from '../helpers/processes.js';
import { PASSWORD, PortalAgent } from '../portal/portal-helpers.js';
import {
  credentialsOf,
  META_TEMPLATES,
  SECRETS_KEY,
  secretsOf,
  template,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
} from './whatsapp-fixtures.js';

/**
 * The built server as its own process at LOG_LEVEL=trace, driven through every path that handles a channel's
 * secrets (seed, CLI connect and rotate, portal connect, sends and syncs, refusals of each kind), then searched:
 * its log, the CLI's output, every API reply and every row of every table must hold none of the secrets.
 */
describe('WhatsApp channel secrets', () => {
  const good = whatsAppAccount('Acme Support');
  const other = whatsAppAccount('Acme Sales');
  const refusedToken = `EAAGrefused${Date.now()}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-secrets-'));
  const cliOutputs: ProcessResult[] = [];
  const replies: string[] = [];
  const portalPages: string[] = [];
  let graph: Awaited<ReturnType<typeof startGraphStandIn>>;
  let databaseUrl: string;
  let server: ServerProcess;
  let baseUrl: string;
  let env: Record<string, string>;

  const cli = async (args: string[]) => {
    const result = await runCli(args, { ...env, LOG_LEVEL: 'trace' });
    cliOutputs.push(result);
    return result;
  };

  beforeAll(async () => {
    graph = await startGraphStandIn({
      accessTokens: [good.accessToken, other.accessToken],
      phoneNumbers: [good, other],
      templates: { [good.wabaId]: META_TEMPLATES(), [other.wabaId]: [template('sales_only')] },
    });
    databaseUrl = await createFreshDatabase();
    env = {
      DATABASE_URL: databaseUrl,
      SECRETS_KEY,
      WHATSAPP_GRAPH_URL: graph.url,
      PUBLIC_URL: 'https://switchboard.example.com',
      TEMPLATE_SYNC_MINUTES: '0',
    };
    server = spawnServer({ ...env, PORT: '0', LOG_LEVEL: 'trace', MIGRATE_ON_START: 'true', DEMO: 'false' });
    const [, port] = await server.waitFor(/"port":(\d+)[^\n]*"msg":"Switchboard listening"/, 60_000);
    baseUrl = `http://127.0.0.1:${port}`;
  }, 120_000);
  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await graph?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appear in no log, CLI, API reply, portal page (but the Channels verify token) or database column', async () => {
    // Seed: a WhatsApp channel and a sandbox one.
    const file = path.join(dir, 'seed.json');
    const seedFile = whatsAppTenantSeed(good, PASSWORD);
    writeFileSync(file, JSON.stringify(seedFile));
    const seeded = await cli(['seed', file]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const wa = whatsAppTenantIds(JSON.parse(seeded.stdout));

    // The API: listing, sending, syncing, and Meta refusing each of them, once echoing the token back.
    const api = async (endpoint: string, body: Record<string, unknown>) => {
      const reply = await axios.post(`${baseUrl}/api/workspace/v1/${endpoint}`, body, {
        headers: { 'x-api-key': wa.ownerKey },
        validateStatus: () => true,
      });
      replies.push(JSON.stringify({ status: reply.status, headers: reply.headers, data: reply.data }));
      return reply;
    };
    const send = {
      channelId: wa.waChannelId,
      to: '15550001234',
      templateName: 'order_update',
      language: 'en_US',
      variables: ['Ada', 'A-1'],
    };
    expect((await api('channels/list', {})).status).toBe(200);
    expect((await api('chat/templates/list', { channelId: wa.waChannelId })).status).toBe(200);
    const sent = await api('chat/templates/send', send);
    expect(sent.status).toBe(200);
    graph.replyOnce({
      status: 400,
      body: graphError(100, `Invalid OAuth access token - Cannot parse access token ${good.accessToken}`),
    });
    const echoed = await api('chat/templates/send', send);
    expect([echoed.status, echoed.data.message]).toEqual([
      400,
      expect.stringContaining('Cannot parse access token [redacted] (code 100)'),
    ]);
    graph.replyOnce({ status: 401, body: graphError(190, 'Error validating access token') });
    expect((await api('chat/templates/send', send)).status).toBe(502);
    graph.replyOnce({ status: 500, body: graphError(131000, 'Something went wrong') });
    expect((await api('chat/templates/send', send)).status).toBe(503);
    expect((await api('chat/templates/sync', { channelId: wa.waChannelId })).status).toBe(200);
    graph.replyOnce({ status: 401, body: graphError(190, 'Error validating access token') });
    expect((await api('chat/templates/sync', { channelId: wa.waChannelId })).status).toBe(502);
    expect((await api('chat/message/status', { msgid: sent.data.data.msgid })).status).toBe(200);

    // Accepted by Meta, its answer not recordable (an id we already hold): a loud log line names the msgid.
    graph.replyOnce({ status: 200, body: { messages: [{ id: sent.data.data.msgid }] } });
    const unrecorded = await api('chat/templates/send', send);
    expect(unrecorded.status).toBe(503);
    const msgid = (unrecorded.data.message as string).split(' ')[1]!;
    await server.waitFor(
      new RegExp(`"level":50[^\\n]*"msgid":"${msgid.replace('.', '\\.')}"[^\\n]*handing a send over failed`),
      10_000,
    );

    // The portal: the Channels page, a refused connect (typed secrets must not come back), a successful one.
    const owner = new PortalAgent(baseUrl);
    expect((await owner.signIn(seedFile.users![0]!.email, PASSWORD)).status).toBe(303);
    const channels = await owner.get('/developer/channels');
    portalPages.push(channels.text);
    expect(channels.text).toContain(good.verifyToken);
    const connectPath = `/developer/channels/${wa.sandboxChannelId}/connect`;
    const csrf = PortalAgent.csrf((await owner.get(connectPath)).text);
    const refused = await owner.post(connectPath, { _csrf: csrf, ...credentialsOf(other), accessToken: refusedToken });
    portalPages.push(refused.text);
    expect(refused.status).toBe(502);
    const connected = await owner.post(connectPath, { _csrf: csrf, ...credentialsOf(other) });
    expect(connected.status).toBe(303);
    portalPages.push((await owner.get(connected.headers.get('location')!)).text);

    // The CLI: a refused connect and a rotation of the WhatsApp channel.
    const flags = (values: ReturnType<typeof credentialsOf>) => [
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
    expect(
      (
        await cli([
          'channel',
          'connect',
          '--channel',
          wa.waChannelId,
          ...flags({ ...credentialsOf(good), accessToken: refusedToken }),
        ])
      ).code,
    ).toBe(1);
    expect((await cli(['channel', 'connect', '--channel', wa.waChannelId, ...flags(credentialsOf(good))])).code).toBe(
      0,
    );
    expect((await cli(['templates', 'sync', '--channel', wa.waChannelId])).code).toBe(0);

    const secrets = [...secretsOf(good), ...secretsOf(other), refusedToken];
    const logs = server.output();
    expect(logs).toMatch(/"msg":"WhatsApp templates pulled"|"msg":"request completed"/);
    const everywhere = [logs, ...cliOutputs.flatMap((result) => [result.stdout, result.stderr]), ...replies];
    for (const secret of secrets) {
      for (const text of everywhere) expect(text.includes(secret), `a secret in ${text.slice(0, 200)}`).toBe(false);
    }
    // The portal shows the verify token on the Channels page, and nothing else.
    for (const secret of [good.accessToken, good.appSecret, other.accessToken, other.appSecret, refusedToken]) {
      for (const page of portalPages) expect(page.includes(secret)).toBe(false);
    }
    expect(refused.text.includes(other.verifyToken)).toBe(false);

    // Every row of every table, ours and the job queue's, as text.
    const tables = await sql(
      databaseUrl,
      `select table_schema as s, table_name as t from information_schema.tables where table_schema in ('public', ` +
        `'pgboss') and table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(15);
    for (const { s, t } of tables) {
      const [{ dump }] = (await sql(
        databaseUrl,
        `select coalesce(string_agg(row_to_json(x)::text, E'\\n'), '') as dump from "${s}"."${t}" x`,
      )) as [{ dump: string }];
      for (const secret of secrets) expect(dump.includes(secret), `${s}.${t} holds a secret`).toBe(false);
    }
  }, 240_000);
});
