import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contract, contractEndpoints, WEBHOOK_EVENT_TYPES, webhookEventName } from '@switchboard/contract';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_VERSION } from '../../packages/client/src/version.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pnpm, run, runBuilding, runOk, SLOW_TIMEOUT_MS } from './commands.js';
import { hoverTexts } from './hover.js';
import { snippetDiagnostics, typeScriptSnippets } from './snippets.js';

const TSC = path.join(REPO_ROOT, 'node_modules/.bin/tsc');

/** What an integrator writes: typed calls, paginate, and an error caught as SwitchboardError. Valid as ESM and CJS. */
const USAGE = `import { createClient, SwitchboardError, type Contact } from '@switchboard/client';

async function main(): Promise<void> {
  const [baseUrl, apiKey, channelId, memberKey] = process.argv.slice(2) as [string, string, string, string];
  const sb = createClient({ baseUrl, apiKey, retry: true });
  const channels = await sb.workspace.channels.list();
  const page = await sb.workspace.contacts.list({ channelId, search: 'ada', limit: 10 });
  const names: string[] = page.data.map((contact: Contact) => contact.name);
  const phones: string[] = [];
  for await (const contact of sb.paginate(sb.workspace.contacts.list, { channelId, limit: 2 }))
    phones.push(contact.phone);
  let failure: { status: number; code: string; requestId: string | undefined } | undefined;
  try {
    await createClient({ baseUrl, apiKey: memberKey }).platform.id.list();
  } catch (error) {
    if (error instanceof SwitchboardError) failure = { status: error.status, code: error.code, requestId:
      error.requestId };
  }
  console.log(JSON.stringify({ channels: channels.total, names, pagination: page.pagination, phones, failure }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** Each line is a call the contract forbids; every one must be a type error, worded in the API's own type names. */
const WRONG_CALLS = [
  // misspelt parameter
  ['sb.workspace.contacts.list({ serach: "ada" });', 'TS2561', "'serach' does not exist in type 'ContactsListParams'"],
  // wrong type
  ['sb.workspace.contacts.list({ limit: "50" });', 'TS2322', "Type 'string' is not assignable to type 'number'"],
  // not a ticket status
  ['sb.platform.tickets.manage({ platformId: "p", status: "done" });', 'TS2322', `Type '"done"' is not assignable`],
  [
    'sb.workspace.chat.templates.send({ templateName: "order_update" });',
    'TS2345',
    "parameter of type 'TemplatesSendParams'",
  ], // required `to` missing
  ['sb.platform.subscription.list();', 'TS2554', 'Expected 1-2 arguments, but got 0'], // required platformId missing
  [
    'sb.workspace.contacts.lst();',
    'TS2551',
    "'lst' does not exist on type 'WorkspaceContactsApi'. Did you mean 'list'?",
  ], // no such endpoint
  [
    'export const unknown: SwitchboardErrorCode = "no_such_code";',
    'TS2322',
    `Type '"no_such_code"' is not assignable to type 'SwitchboardErrorCode'`,
  ], // not an API code
  [
    'export const network: SwitchboardErrorCode = "EWHATEVER";',
    'TS2322',
    `Type '"EWHATEVER"' is not assignable to type 'SwitchboardErrorCode'`,
  ], // not a connection code
  [
    'export const ticket: TicketsManageErrorCode = "template_not_found";',
    'TS2322',
    `Type '"template_not_found"' is not assignable to type 'TicketsManageErrorCode'`,
  ], // not one tickets/manage gives
] as const;

/**
 * The published declarations are plain named types, not the contract's ts-rest and zod types inlined (far larger);
 * most of their size is the documentation generated from the contract.
 */
const MAX_DECLARATION_BYTES = 320 * 1024;
/**
 * What a receiver importing only `@switchboard/client/webhooks` bundles, minified: it and `standardwebhooks`. Raised
 * for the malformed-secret check (`invalid_secret`: a base64 pattern and its message), which the previous budget left
 * no room for.
 */
const MAX_WEBHOOKS_BUNDLE_BYTES = 15.5 * 1024;
/** `isSwitchboardError` alone, minified: the error classes, without the client, the contract or zod. */
const MAX_ERRORS_BUNDLE_BYTES = 4 * 1024;

/** Each event's body type as the SDK names it (`TicketClosedEvent`). */
const EVENT_TYPE_NAMES = WEBHOOK_EVENT_TYPES.map(webhookEventName);
const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** Calls an integrator hovers over; each must show its documentation from the contract. */
const HOVER_SOURCE = `import {
  createClient,
  type BroadcastRecipient,
  type Message,
  type MessageStatus,
  type WebhookChangeParams,
  type WebhookCreateParams,
  ${EVENT_TYPE_NAMES.map((name) => `type ${name},`).join('\n  ')}
} from '@switchboard/client';
const sb = createClient({ baseUrl: 'http://localhost:3000', apiKey: 'k' });
export async function hover(channelId: string) {
  await sb.workspace.contacts.manage({ channelId, phone: '15550000001', name: 'Ada' });
  await sb.workspace.contacts.list({ channelId, search: 'ada' });
  await sb.workspace.labels.manage({ channelId, name: 'vip' });
  await sb.workspace.automations.manage({ channelId, action: 'delete', automationId: 'a' });
  await sb.platform.webhooks.manage({ platformId: 'p', action: 'redeliver', deliveryId: 'd' });
  await sb.platform.tickets.get({ platformId: 'p', ticketId: 't' });
  await sb.workspace.chat.message.send({ channelId, to: '15550000001', text: 'hi', previewUrl: true, replyTo: 'm' });
  const contact = (await sb.workspace.contacts.get({ channelId, contactId: 'c' })).data;
  const messages = (await sb.workspace.chat.messages.list({ channelId })).data;
  const inbox = (await sb.workspace.chat.conversations.list({ channelId })).data;
  await sb.workspace.chat.notes.manage({ channelId, action: 'create', text: 'Called', phone: '15550000001' });
  return [contact.phone, messages[0]?.replyTo, inbox[0]?.unreadCount];
}
export function webhookFields(create: WebhookCreateParams, change: Extract<WebhookChangeParams, { action: 'update' }>) {
  return [create.platformId, create.action, create.url, create.events, create.description, create.enabled,
    create.batch, change.endpointId, change.url, change.events, change.description, change.enabled, change.batch];
}
export function statusFields(recipient: BroadcastRecipient, status: MessageStatus, message: Message) {
  return [recipient.status, status.status, message.status];
}
${EVENT_TYPE_NAMES.map((name) => `export const ${lowerFirst(name)} = (e: ${name}) => [e.type, e.data];`).join('\n')}
`;
/** Methods: their hover shows the summary, the rate class and an example; workspace ones the channelId rule. */
const HOVER_METHODS = [
  'sb.workspace.contacts.manage',
  'sb.workspace.contacts.list',
  'sb.workspace.labels.manage',
  'sb.workspace.automations.manage',
  'sb.platform.tickets.get',
  'sb.workspace.chat.message.send',
  'sb.workspace.chat.messages.list',
  'sb.workspace.chat.conversations.list',
];
/** Parameters and reply fields: their hover shows the field's description. */
const HOVER_FIELDS = [
  'search',
  'previewUrl',
  'replyTo',
  'action',
  'contact.phone',
  'messages[0]?.replyTo',
  'inbox[0]?.unreadCount',
  "action: 'create', text",
  ...['platformId', 'action', 'url', 'events', 'description', 'enabled', 'batch'].map((field) => `create.${field}`),
  ...['endpointId', 'url', 'events', 'description', 'enabled', 'batch'].map((field) => `change.${field}`),
  'recipient.status',
  'status.status',
  'message.status',
  ...EVENT_TYPE_NAMES.flatMap((name) => [`(e: ${name}) => [e.type`, `(e: ${name}) => [e.type, e.data`]),
];

const WRONG_HEADER = [
  "import { createClient, type SwitchboardErrorCode, type TicketsManageErrorCode } from '@switchboard/client';",
  "const sb = createClient({ baseUrl: 'http://localhost:3000', apiKey: 'k' });",
];
const WRONG = [...WRONG_HEADER, ...WRONG_CALLS.map(([call]) => call), ''].join('\n');
/** The 1-based line of the n-th wrong call in WRONG. */
const wrongLine = (index: number) => WRONG_HEADER.length + index + 1;

describe('the packed SDK, installed outside the workspace', () => {
  let server: TestServer;
  let acme: Tenant;
  let project: string;
  let tarball: string;

  beforeAll(async () => {
    const started = startTestServer();
    project = mkdtempSync(path.join(tmpdir(), 'switchboard-sdk-consumer-'));
    // `pnpm sdk:pack`, as a maintainer publishing it: builds the SDK and writes the tarball to dist/sdk/.
    const packed = await runBuilding(pnpm('--silent', 'sdk:pack'));
    tarball = packed.trim().split('\n').pop()!;
    expect(tarball).toBe(path.join(REPO_ROOT, 'dist/sdk', `switchboard-client-${SDK_VERSION}.tgz`));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true }));
    await runOk(
      'npm',
      // Express for the README's webhook receiver.
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        tarball,
        '@types/node@24',
        'express@4',
        '@types/express@4',
      ],
      { cwd: project },
    );
    server = await started;
    acme = await createTenant(server, 'Acme');
  }, 2 * SLOW_TIMEOUT_MS); // a cold build plus an npm install
  afterAll(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('packs only dist/ with no workspace-only dependency', async () => {
    const listing = (await runOk('tar', ['-tzf', tarball], { cwd: project })).trim().split('\n').sort();
    expect(listing.every((file) => /^package\/(dist\/|package\.json$|README\.md$)/.test(file))).toBe(true);
    expect(listing).toEqual(
      expect.arrayContaining([
        'package/dist/index.js',
        'package/dist/index.cjs',
        'package/dist/index.d.ts',
        'package/dist/index.d.cts',
      ]),
    );
    expect(listing.filter((file) => file.endsWith('.map'))).toEqual([]);
    const manifest = JSON.parse(
      readFileSync(path.join(project, 'node_modules/@switchboard/client/package.json'), 'utf8'),
    );
    // What an installer reads and no more: nothing that needs this repository.
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.exports['./webhooks'].import.types).toBe('./dist/webhooks-entry.d.ts');
    expect(manifest.exports['.'].worker.default).toBe('./dist/worker/index.js');
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      '@ts-rest/core',
      'axios',
      'eventsource-parser',
      'standardwebhooks',
      'zod',
    ]);
    // devDependencies are never installed for a dependency, so only what an install reads must be free of them.
    const installed = {
      dependencies: manifest.dependencies,
      peer: manifest.peerDependencies,
      optional: manifest.optionalDependencies,
      exports: manifest.exports,
      main: manifest.main,
      types: manifest.types,
    };
    expect(JSON.stringify(installed)).not.toMatch(/workspace:|@switchboard\/contract|\.\/src/);
    expect(manifest.exports['.'].import.types).toBe('./dist/index.d.ts');
    expect(manifest.exports['.'].require.types).toBe('./dist/index.d.cts');
  });

  it('exports only the public API at runtime, the same from import and require', async () => {
    const esm = await runOk(
      process.execPath,
      ['--input-type=module', '-e', `console.log(JSON.stringify(Object.keys(await import('@switchboard/client'))))`],
      { cwd: project },
    );
    const cjs = await runOk(
      process.execPath,
      ['-e', `console.log(JSON.stringify(Object.keys(require('@switchboard/client'))))`],
      { cwd: project },
    );
    for (const exported of [esm, cjs]) {
      expect((JSON.parse(exported) as string[]).sort()).toEqual([
        'ApiConnectionError',
        'AuthenticationError',
        'IdempotencyError',
        'InvalidRequestError',
        'NotFoundError',
        'PermissionError',
        'RateLimitError',
        'SwitchboardError',
        'WebhookVerificationError',
        'createClient',
        'isSwitchboardError',
        'paginate',
        'verifyWebhook',
        'verifyWebhookBatch',
      ]);
    }
  });

  it('exports the verifiers and their error from @switchboard/client/webhooks, as import and require', async () => {
    const script = (load: string) => `console.log(JSON.stringify(Object.keys(${load}).sort()))`;
    const esm = await runOk(
      process.execPath,
      ['--input-type=module', '-e', script(`await import('@switchboard/client/webhooks')`)],
      { cwd: project },
    );
    const cjs = await runOk(process.execPath, ['-e', script(`require('@switchboard/client/webhooks')`)], {
      cwd: project,
    });
    for (const exported of [esm, cjs])
      expect(JSON.parse(exported)).toEqual([
        'WebhookVerificationError',
        'signWebhook',
        'verifyWebhook',
        'verifyWebhookBatch',
      ]);
  });

  it('declares its types in plain named interfaces, small enough to read', () => {
    for (const file of ['index.d.ts', 'index.d.cts', 'webhooks-entry.d.ts', 'webhooks-entry.d.cts']) {
      const declarations = readFileSync(path.join(project, 'node_modules/@switchboard/client/dist', file), 'utf8');
      expect(Buffer.byteLength(declarations), file).toBeLessThanOrEqual(MAX_DECLARATION_BYTES);
      // Plain types: neither the validation library, the router, nor the transport shows through.
      expect(declarations, file).not.toMatch(/from ['"](zod|@ts-rest\/core|axios)['"]/);
      if (file.startsWith('webhooks')) continue;
      expect(declarations, file).toMatch(/interface ContactsListParams \{/);
      expect(declarations, file).toMatch(/interface SwitchboardClient extends SwitchboardApi \{/);
    }
  });

  it('shows each method’s and field’s documentation from the contract on hover, as an editor asks for it', () => {
    const hovers = hoverTexts(project, HOVER_SOURCE, [...HOVER_METHODS, ...HOVER_FIELDS]);
    const empty = [...hovers].filter(([, hover]) => !hover.documentation.trim()).map(([probe]) => probe);
    expect(empty).toEqual([]);
    for (const method of HOVER_METHODS) {
      const { documentation, tags } = hovers.get(method)!;
      expect(documentation, method).toMatch(/Rate limit class: `api_(read|write|message|admin_write)`/);
      expect(documentation, method).toMatch(/Errors \(`error.code`\): `invalid_request`/);
      expect(tags, method).toContain('example');
      if (method.startsWith('sb.workspace.')) expect(documentation, method).toContain('`channelId`: ');
    }
    expect(hovers.get('previewUrl')!.documentation).toBe('text only: let WhatsApp show a preview of the first link');
    // Each form's own words: create's text is not described as delete's.
    expect(hovers.get("action: 'create', text")!.documentation).toMatch(/^create: the note/);
  });

  it('bundles @switchboard/client/webhooks and isSwitchboardError small, builds for a worker', async () => {
    const bundle = async (contents: string, worker = false) => {
      const { outputFiles } = await build({
        stdin: { contents, resolveDir: project, loader: 'ts' },
        bundle: true,
        minify: true,
        write: false,
        format: 'esm',
        logLevel: 'silent',
        // A worker runtime: no Node built-ins and no browser globals to lean on, only the `worker` condition.
        ...(worker ? { platform: 'neutral', mainFields: ['module', 'main'], conditions: ['worker'] } : {}),
      });
      return outputFiles[0]!.contents.byteLength;
    };
    expect(await bundle(`export { verifyWebhook } from '@switchboard/client/webhooks';`)).toBeLessThanOrEqual(
      MAX_WEBHOOKS_BUNDLE_BYTES,
    );
    expect(await bundle(`export { isSwitchboardError } from '@switchboard/client';`)).toBeLessThanOrEqual(
      MAX_ERRORS_BUNDLE_BYTES,
    );
    // Resolves and bundles (a Node built-in would fail to resolve on this platform).
    expect(await bundle(`export * from '@switchboard/client';`, true)).toBeGreaterThan(0);
    expect(await bundle(`export * from '@switchboard/client/webhooks';`, true)).toBeGreaterThan(0);
  });

  it(
    'type-checks strict code against the import and require types, and runs it as ESM and as CJS',
    async () => {
      writeFileSync(path.join(project, 'usage.mts'), USAGE);
      writeFileSync(path.join(project, 'usage.cts'), USAGE);
      const compilerOptions = {
        strict: true,
        noUncheckedIndexedAccess: true,
        module: 'nodenext',
        target: 'es2022',
        types: ['node'],
      };
      writeFileSync(
        path.join(project, 'tsconfig.json'),
        JSON.stringify({ compilerOptions, files: ['usage.mts', 'usage.cts'] }),
      );
      await runOk(TSC, ['-p', 'tsconfig.json'], { cwd: project });
      expect(readFileSync(path.join(project, 'usage.cjs'), 'utf8')).toMatch(/require\("@switchboard\/client"\)/);
      expect(readFileSync(path.join(project, 'usage.mjs'), 'utf8')).toMatch(/from '@switchboard\/client'/);

      const args = [server.baseUrl, acme.ownerKey, acme.mainChannelId, acme.memberKey];
      for (const file of ['usage.mjs', 'usage.cjs']) {
        const output = JSON.parse(await runOk(process.execPath, [file, ...args], { cwd: project }));
        expect(output, file).toEqual({
          channels: 2,
          names: ['Ada Lovelace'],
          pagination: { page: 1, limit: 10, total: 1, pages: 1 },
          phones: expect.arrayContaining(['15550000001', '15550000002', '447700900003']),
          failure: { status: 403, code: 'forbidden', requestId: expect.any(String) },
        });
        expect(output.phones, file).toHaveLength(3);
      }
    },
    SLOW_TIMEOUT_MS,
  );

  it(
    'refuses to compile calls the contract does not allow',
    async () => {
      writeFileSync(path.join(project, 'wrong.mts'), WRONG);
      const result = await run(TSC, ['--noEmit', '--strict', '--module', 'nodenext', '--types', 'node', 'wrong.mts'], {
        cwd: project,
      });
      expect(result.code).not.toBe(0);
      const errors = result.stdout.split('\n').filter((line) => line.startsWith('wrong.mts('));
      WRONG_CALLS.forEach(([call, code, message], index) => {
        const line = wrongLine(index);
        const error = errors.find((error) => error.startsWith(`wrong.mts(${line},`) && error.includes(code));
        expect(error, `${call} → ${code}\n${result.stdout}`).toContain(message);
      });
      expect(result.stdout).not.toMatch(/Zod|ts-rest|AppRoute|ClientTree/);
      expect(
        errors.filter((error) => !WRONG_CALLS.some((_, index) => error.startsWith(`wrong.mts(${wrongLine(index)},`))),
      ).toEqual([]);
    },
    SLOW_TIMEOUT_MS,
  );

  it(
    'passes the type-level checks (tests/sdk/typing) with exactOptionalPropertyTypes as nodenext, node16 and bundler',
    async () => {
      // As ESM (.mts), as CommonJS (.cts: the `require` types), and as a bundler sees it (.ts).
      const checks = readFileSync(path.join(import.meta.dirname, 'typing/checks.ts'));
      for (const file of ['checks.mts', 'checks.cts', 'checks.ts']) writeFileSync(path.join(project, file), checks);
      const strict = ['--noEmit', '--strict', '--exactOptionalPropertyTypes', '--noUncheckedIndexedAccess'];
      const resolutions = [
        ['--module', 'nodenext', '--moduleResolution', 'nodenext', 'checks.mts', 'checks.cts'],
        ['--module', 'node16', '--moduleResolution', 'node16', 'checks.mts', 'checks.cts'],
        ['--module', 'esnext', '--moduleResolution', 'bundler', 'checks.ts'],
      ];
      for (const resolution of resolutions)
        await runOk(TSC, [...strict, '--target', 'es2022', '--types', 'node', ...resolution], { cwd: project });
    },
    SLOW_TIMEOUT_MS,
  );

  it(
    'ships a README that names every method and whose every TypeScript example compiles against the package',
    () => {
      const readme = readFileSync(path.join(project, 'node_modules/@switchboard/client/README.md'), 'utf8');
      for (const { at } of contractEndpoints(contract)) expect(readme).toContain(`\`sb.${at.join('.')}\``);
      for (const section of ['Authentication', 'Pagination', 'Errors', 'Retries', 'Response metadata', 'Webhooks'])
        expect(readme).toMatch(new RegExp(`^## ${section}`, 'm'));
      // readme-snippets.test.ts checks them against the workspace's build and runs them; here, as installed.
      const snippets = typeScriptSnippets(readme);
      expect(snippets.length).toBeGreaterThanOrEqual(5);
      expect(snippetDiagnostics(project, snippets)).toEqual([]);
    },
    SLOW_TIMEOUT_MS,
  );
});
