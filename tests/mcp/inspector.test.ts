import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { REPO_ROOT } from '../helpers/processes.js';
import { test } from '../helpers/test.js';
import { run } from '../sdk/commands.js';

/** The MCP Inspector's command line (a devDependency of the tests), as a developer runs it against a server. */
const INSPECTOR = path.join(REPO_ROOT, 'tests/node_modules/.bin/mcp-inspector');
const BIN = path.join(REPO_ROOT, 'packages/mcp/bin/switchboard-mcp.js');

/** The Inspector keeps a catalogue and storage under HOME: a scratch one, so a run leaves nothing behind. */
const HOME = mkdtempSync(path.join(tmpdir(), 'mcp-inspector-home-'));

async function inspect(target: string[], method: string[]): Promise<unknown> {
  const result = await run(INSPECTOR, ['--cli', ...target, ...method], {
    cwd: REPO_ROOT,
    env: { HOME },
    timeoutMs: 90_000,
  });
  expect(result.code, result.stderr).toBe(0);
  // --strict reports schema portability problems on stderr: there are none.
  expect(result.stderr).not.toMatch(/warning|error/i);
  return JSON.parse(result.stdout);
}

describe('the MCP Inspector’s CLI mode', { timeout: 180_000 }, () => {
  test('lists the tools over Streamable HTTP, finds none unportable, and calls one', async ({ server, acme }) => {
    const http = [`${server.baseUrl}/mcp`, '--transport', 'http', '--header', `X-API-Key: ${acme.memberKey}`];
    const listed = (await inspect(http, ['--method', 'tools/list', '--strict'])) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['contacts_list', 'chat_message_send']),
    );
    const called = (await inspect(http, [
      '--method',
      'tools/call',
      '--tool-name',
      'contacts_list',
      '--tool-arg',
      'search=ada',
      '--tool-arg',
      'limit=5',
    ])) as { structuredContent: unknown };
    const { success: _success, ...viaApi } = await server
      .client(acme.memberKey)
      .workspace.contacts.list({ search: 'ada', limit: 5 });
    expect(called.structuredContent).toEqual(viaApi);
  });

  test('lists the tools and prompts of switchboard-mcp over stdio, and calls one', async ({ server, acme }) => {
    const stdio = [
      '-e',
      `SWITCHBOARD_URL=${server.baseUrl}`,
      '-e',
      `SWITCHBOARD_API_KEY=${acme.memberKey}`,
      '-e',
      'SWITCHBOARD_MCP_TOOLS=read,chat',
      process.execPath,
      BIN,
    ];
    const listed = (await inspect(stdio, ['--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('chat_conversations_list');
    expect(listed.tools.every((tool) => tool.name.startsWith('chat_'))).toBe(true);
    const prompts = (await inspect(stdio, ['--method', 'prompts/list'])) as { prompts: { name: string }[] };
    expect(prompts.prompts.map((prompt) => prompt.name)).toEqual(['answer_conversation', 'summarize_inbox']);
    const inbox = (await inspect(stdio, ['--method', 'tools/call', '--tool-name', 'chat_conversations_list'])) as {
      structuredContent: { data: { phone: string }[] };
    };
    expect(inbox.structuredContent.data.map((conversation) => conversation.phone)).toContain('15550000001');
  });
});
