import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildOpenApi } from '@switchboard/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { runOk, SLOW_TIMEOUT_MS } from '../sdk/commands.js';

const BIN = path.join(REPO_ROOT, 'tests/node_modules/.bin');

/**
 * Written against types that openapi-typescript generated from openapi.json alone, with openapi-fetch as the
 * HTTP client: nothing here comes from the contract or the SDK.
 */
const CLIENT = `import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

const [baseUrl, apiKey, channelId] = process.argv.slice(2) as [string, string, string];
const api = createClient<paths>({ baseUrl, headers: { 'X-API-Key': apiKey } });

const posted = await api.POST('/api/workspace/v1/contacts/list', { body: { channelId, search: 'ada', limit: 10 } });
if (posted.error) throw new Error(\`\${posted.response.status} \${posted.error.error}: \${posted.error.message}\`);
const names: string[] = posted.data.data.map((contact) => contact.name);
const pagination: { page: number; pages: number; total: number } = posted.data.pagination;

const got = await api.GET('/api/workspace/v1/contacts/list', { params: { query: { channelId, search: 'grace' } } });
const written = await api.POST('/api/workspace/v1/labels/manage', { body: { channelId, name: 'generated', color:
  '#123456' } });
const label: components['schemas']['Label'] | undefined = written.data?.data;
const refused = await api.POST('/api/workspace/v1/contacts/list', { body: { channelId, limit: 500 } });
// The failure's \`error\` is a union of the codes the document lists for contacts/list: switch on it.
let refusal = 'other';
if (refused.error?.error === 'invalid_request') refusal = \`invalid_request: \${refused.error.message}\`;

const gotNames = got.data?.data.map((contact) => contact.name);
const refusedWith = [refused.response.status, refusal];
console.log(JSON.stringify({ names, pagination, got: gotNames, label: label?.name, refused: refusedWith }));

/** Never called: proves the generated types are precise enough to reject a wrong call and an unknown code. */
export function wrongCalls(reply: typeof refused) {
  // @ts-expect-error: "no_such_code" is not an error code of contacts/list
  const unknown = reply.error?.error === 'no_such_code';
  // @ts-expect-error: a ticket is created with an email, a title and a description, or updated by ticketId
  const incomplete = api.POST('/api/platform/v1/tickets/manage', { body: { platformId: 'p', title: 'No email' } });
  // @ts-expect-error: contacts/list takes search as a string
  return [unknown, incomplete, api.POST('/api/workspace/v1/contacts/list', { body: { search: 42 } })];
}
`;

describe('a client generated from openapi.json by openapi-typescript + openapi-fetch', () => {
  let server: TestServer;
  let acme: Tenant;
  // Inside tests/ (git-ignored artifacts/) so the generated client resolves openapi-fetch from tests/node_modules.
  const dir = path.join(REPO_ROOT, 'tests/artifacts', `openapi-client-${randomBytes(4).toString('hex')}`);

  beforeAll(async () => {
    const started = startTestServer();
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(buildOpenApi()));
    await runOk(path.join(BIN, 'openapi-typescript'), ['openapi.json', '--output', 'schema.d.ts'], { cwd: dir });
    writeFileSync(path.join(dir, 'client.mts'), CLIENT);
    server = await started;
    acme = await createTenant(server, 'Acme');
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates a type per path and operation', () => {
    const schema = readFileSync(path.join(dir, 'schema.d.ts'), 'utf8');
    expect(schema).toContain('"/api/workspace/v1/contacts/list": {');
    expect(schema).toContain('"/api/platform/v1/tickets/manage": {');
    expect(schema).toMatch(/workspaceContactsList: \{/);
  });

  it(
    'compiles under strict tsc, reads, writes and narrows a 400 on its error code against the live server',
    async () => {
      await runOk(
        path.join(BIN, 'tsc'),
        ['--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', 'client.mts'],
        { cwd: dir },
      );
      const output = JSON.parse(
        await runOk(process.execPath, ['client.mjs', server.baseUrl, acme.ownerKey, acme.mainChannelId], { cwd: dir }),
      );
      expect(output).toEqual({
        names: ['Ada Lovelace'],
        pagination: { page: 1, limit: 10, total: 1, pages: 1 },
        got: ['Grace Hopper'],
        label: 'generated',
        refused: [400, 'invalid_request: limit: must be at most 200'],
      });
    },
    SLOW_TIMEOUT_MS,
  );
});
