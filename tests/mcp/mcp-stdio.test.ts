import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '@switchboard/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_VERSION } from '../../packages/mcp/src/version.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { callFails, callOk, mcpOverStdio } from '../helpers/mcp.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pnpm, run, runBuilding, runOk, SLOW_TIMEOUT_MS } from '../sdk/commands.js';

describe('switchboard-mcp over stdio, from the packed @switchboard/mcp installed outside the workspace', () => {
  let server: TestServer;
  let acme: Tenant;
  let globex: Tenant;
  let project: string;
  let bin: string;
  const clients: Client[] = [];
  const connect = async (apiKey: string, tools?: string) => {
    const env = { SWITCHBOARD_URL: server.baseUrl, SWITCHBOARD_API_KEY: apiKey };
    const client = await mcpOverStdio(bin, tools === undefined ? env : { ...env, SWITCHBOARD_MCP_TOOLS: tools });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const started = startTestServer();
    project = mkdtempSync(path.join(tmpdir(), 'switchboard-mcp-consumer-'));
    // As a maintainer publishing them: the SDK the MCP package depends on, and the MCP package.
    const tarballs = [];
    for (const script of ['sdk:pack', 'mcp:pack']) {
      const packed = await runBuilding(pnpm('--silent', script));
      tarballs.push(packed.trim().split('\n').pop()!);
    }
    expect(tarballs[1]).toBe(path.join(REPO_ROOT, 'dist/mcp', `switchboard-mcp-${MCP_VERSION}.tgz`));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'mcp-consumer', private: true }));
    await runOk('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...tarballs], {
      cwd: project,
    });
    bin = path.join(project, 'node_modules/.bin/switchboard-mcp');
    server = await started;
    acme = await createTenant(server, 'Acme');
    globex = await createTenant(server, 'Globex');
  }, 2 * SLOW_TIMEOUT_MS); // builds, packs and an npm install
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('installs with a `switchboard-mcp` bin and its own dependencies only, and announces its version', async () => {
    const manifest = JSON.parse(readFileSync(path.join(project, 'node_modules/@switchboard/mcp/package.json'), 'utf8'));
    expect(manifest.version).toBe(MCP_VERSION);
    expect(manifest.bin).toEqual({ 'switchboard-mcp': './bin/switchboard-mcp.js' });
    expect(manifest.devDependencies).toBeUndefined();
    expect(JSON.stringify(manifest.dependencies)).not.toMatch(/workspace:/);
    const client = await connect(acme.memberKey);
    expect(client.getServerVersion()).toMatchObject({ name: 'switchboard', version: MCP_VERSION });
  });

  it('lists the same tools as the catalogue, with their annotations', async () => {
    const client = await connect(acme.ownerKey);
    const { tools } = await client.listTools();
    expect(tools.map(({ name, annotations }) => ({ name, annotations }))).toEqual(
      TOOLS.map(({ name, annotations }) => ({ name, annotations })),
    );
  });

  it('contacts_list returns what contacts/list returns', async () => {
    const client = await connect(acme.ownerKey);
    const params = { channelId: acme.mainChannelId, search: 'ada' };
    const { success: _success, ...viaApi } = await server.client(acme.ownerKey).workspace.contacts.list(params);
    expect(await callOk(client, 'contacts_list', params)).toEqual(viaApi);
  });

  it('chat_message_send sends through the server, and the sandbox delivers it', async () => {
    const client = await connect(acme.memberKey);
    const sent = await callOk<{ data: { msgid: string } }>(client, 'chat_message_send', {
      to: '15550000001',
      text: 'Sent from a desktop agent.',
    });
    const chat = server.client(acme.memberKey).workspace.chat;
    await expect
      .poll(async () => (await chat.message.status({ msgid: sent.data.msgid })).data.status, { timeout: 10_000 })
      .toBe('delivered');
  });

  it('a bad argument, another tenant’s channel and a missing permission are error results', async () => {
    const client = await connect(acme.ownerKey);
    expect(await callFails(client, 'contacts_list', { channelId: acme.mainChannelId, limit: 0 })).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/^limit: /),
    });
    expect(await callFails(client, 'contacts_list', { channelId: globex.mainChannelId })).toMatchObject({
      error: 'forbidden',
    });
    const member = await connect(acme.memberKey);
    expect(await callFails(member, 'platform_tickets_list', { platformId: acme.platformId })).toMatchObject({
      error: 'forbidden',
    });
  });

  it('SWITCHBOARD_MCP_TOOLS=read offers only read tools', async () => {
    const client = await connect(acme.memberKey, 'read');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      TOOLS.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name),
    );
  });

  it('without its configuration, prints its usage on stderr and exits 2; a wrong selector exits 1', async () => {
    const missing = await run(process.execPath, [bin], { cwd: project, timeoutMs: 30_000 });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/SWITCHBOARD_URL/);
    const wrong = await run(process.execPath, [bin], {
      cwd: project,
      env: { SWITCHBOARD_URL: server.baseUrl, SWITCHBOARD_API_KEY: acme.memberKey, SWITCHBOARD_MCP_TOOLS: 'contcts' },
      timeoutMs: 30_000,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/"contcts"/);
  });
});
