import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { ERROR_CODE_STATUS, EXAMPLE_IDS, type ErrorCode } from '@switchboard/contract';
import { buildOpenApi, buildPostmanCollection, toYaml, type OpenAPIObject, type PostmanCollection } from '@switchboard/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/processes.js';
import { pnpm, run, runBuilding } from '../sdk/commands.js';
import { contractRoutes } from './routes.js';

type Schema = { required?: string[]; anyOf?: unknown[]; properties?: Record<string, unknown> };
type Operation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  'x-rate-limit-class': string;
  parameters: { name: string; in: string; example?: unknown }[];
  requestBody?: { content: { 'application/json': { example: unknown; schema: unknown } } };
  responses: Record<string, { description: string; content: { 'application/json': { schema: { $ref?: string; properties?: Record<string, unknown> } } } }>;
};

const routes = contractRoutes();
const isWrite = (route: { metadata: { rateClass: string } }) => route.metadata.rateClass === 'api_write' || route.metadata.rateClass === 'api_admin_write';

// Not example.com or localhost: linters rightly warn about those as a deployment's address.
const SERVER_URL = 'https://switchboard.acme.test';
const REDOCLY = path.join(REPO_ROOT, 'tests/node_modules/.bin/redocly');
const SPECTRAL = path.join(REPO_ROOT, 'tests/node_modules/.bin/spectral');

describe('pnpm export:api', () => {
  let out: string;
  const read = (name: string) => readFileSync(path.join(out, name), 'utf8');

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'switchboard-api-'));
    await runBuilding(pnpm('--silent', 'export:api', '--out', out, '--server', SERVER_URL));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes openapi.json, openapi.yaml, the Postman collection and its environment, all from the contract', () => {
    expect(readdirSync(out).sort()).toEqual(['openapi.json', 'openapi.yaml', 'postman_collection.json', 'switchboard.postman_environment.json']);
    const json = JSON.parse(read('openapi.json'));
    expect(json).toEqual(JSON.parse(JSON.stringify(buildOpenApi({ serverUrl: SERVER_URL }))));
    expect(parse(read('openapi.yaml'))).toEqual(json);
    const collection = JSON.parse(read('postman_collection.json')) as PostmanCollection;
    expect(collection.variable?.find((v) => v.key === 'baseUrl')?.value).toBe(SERVER_URL);
  });

  it('writes an openapi.json that validates against the OpenAPI 3.0 schema with zero errors (swagger-parser)', async () => {
    const validated = await SwaggerParser.validate(path.join(out, 'openapi.json'));
    expect('openapi' in validated && validated.openapi).toMatch(/^3\.0\.\d$/);
    expect(Object.keys(validated.paths ?? {})).toHaveLength(routes.length / 2);
  });

  it('passes `redocly lint` (recommended rules) with zero errors and zero warnings, as JSON and as YAML', async () => {
    for (const file of ['openapi.json', 'openapi.yaml']) {
      const env = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const result = await run(REDOCLY, ['lint', file, '--format', 'json'], { cwd: out, env });
      const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`), file).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(result.code).toBe(0);
    }
  });

  it('passes `spectral lint` (spectral:oas ruleset) with zero errors and zero warnings', async () => {
    writeFileSync(path.join(out, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
    const result = await run(SPECTRAL, ['lint', 'openapi.json', '--format', 'json', '--ruleset', '.spectral.yaml', '--fail-severity', 'warn'], { cwd: out });
    // The JSON report is followed by a summary line on stdout.
    const problems = JSON.parse(result.stdout.slice(result.stdout.indexOf('['), result.stdout.lastIndexOf(']') + 1)) as { code: string; message: string; path: string[] }[];
    expect(problems.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`)).toEqual([]);
    expect(result.code).toBe(0);
  });
});

describe('OpenAPI definition', () => {
  let doc: OpenAPIObject;
  const operation = (path: string, method: string) => doc.paths[path][method.toLowerCase()] as Operation;
  const componentOf = (ref: { $ref?: string }) => doc.components!.schemas![ref.$ref!.split('/').pop()!] as Schema;
  const component = (response: { content: { 'application/json': { schema: { $ref?: string } } } }) => componentOf(response.content['application/json'].schema);

  beforeAll(() => {
    doc = buildOpenApi({ serverUrl: SERVER_URL });
  });

  it('carries version 1.0.0, contact, license, the server root and both security schemes, required everywhere', () => {
    expect(doc.info).toMatchObject({
      title: 'Switchboard API',
      version: '1.0.0',
      contact: { url: `${SERVER_URL}/developer` },
      license: { name: expect.any(String), url: `${SERVER_URL}/developer` },
    });
    expect(buildOpenApi().servers?.[0]?.url).toBe('http://localhost:3000');
    expect(doc.servers).toEqual([{ url: SERVER_URL, description: expect.any(String) }]);
    expect(doc.components?.securitySchemes).toEqual({
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: expect.any(String) },
      BearerAuth: { type: 'http', scheme: 'bearer', description: expect.any(String) },
    });
    for (const route of routes) expect(operation(route.path, route.method).security, route.path).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
  });

  it('has a GET and a POST for every contract endpoint, each with a unique operationId, summary, tag and rate class', () => {
    expect(routes.length).toBeGreaterThanOrEqual(26);
    const ids = new Set<string>();
    for (const route of routes) {
      const op = operation(route.path, route.method);
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(op.operationId);
      expect(op.summary).toBe(route.summary);
      expect(op.tags).toHaveLength(1);
      expect(doc.tags?.map((tag) => tag.name)).toContain(op.tags[0]);
      expect(op['x-rate-limit-class']).toBe(route.metadata.rateClass);
      expect(op.description).toContain(`Rate limit class: \`${route.metadata.rateClass}\``);
    }
    expect(ids.size).toBe(routes.length);
    expect(operation('/api/workspace/v1/contacts/list', 'POST').operationId).toBe('workspaceContactsList');
    expect(operation('/api/workspace/v1/contacts/list', 'GET').operationId).toBe('workspaceContactsListGet');
    expect(operation('/api/platform/v1/tickets/manage', 'POST')['x-rate-limit-class']).toBe('api_admin_write');
    expect(operation('/api/workspace/v1/labels/manage', 'POST')['x-rate-limit-class']).toBe('api_write');
  });

  it('lists every response status the endpoint can give, each failure narrowed to the error codes of that status', () => {
    for (const route of routes) {
      const { responses } = operation(route.path, route.method);
      expect(Object.keys(responses).sort(), route.path).toEqual(Object.keys(route.responses).sort());
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429', '500']));
      expect(component(responses['200']!).required).toEqual(expect.arrayContaining(['success', 'data']));
      for (const [status, response] of Object.entries(responses).filter(([status]) => status !== '200')) {
        const envelope = component(response);
        expect(envelope.required, `${route.path} ${status}`).toEqual(['success', 'error', 'message']);
        const codes = (envelope.properties!.error as { enum: ErrorCode[] }).enum;
        expect(codes.map((code) => ERROR_CODE_STATUS[code]), `${route.path} ${status}`).toEqual(codes.map(() => Number(status)));
        expect(response.description).not.toBe(status);
      }
    }
    const tickets = operation('/api/platform/v1/tickets/manage', 'POST').responses;
    expect(tickets['404']!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TicketNotFoundError' });
    expect(component(tickets['404']!).properties!.error).toMatchObject({ enum: ['ticket_not_found'] });
    expect(component(tickets['400']!).properties!.error).toMatchObject({ enum: ['invalid_request', 'invalid_json'] });
    const addon = operation('/api/platform/v1/addon/manage', 'POST').responses;
    expect(component(addon['400']!).properties!.error).toMatchObject({ enum: ['invalid_request', 'invalid_json', 'no_active_subscription'] });
    expect(component(addon['404']!).properties!.error).toMatchObject({ enum: ['user_not_found', 'addon_not_found'] });
  });

  it('declares the headers that are always sent as required: X-Request-Id, RateLimit-* (with Policy), Retry-After on 429', () => {
    const headers = doc.components!.headers as Record<string, { required?: boolean }>;
    for (const name of ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After']) {
      expect(headers[name]?.required, name).toBe(true);
    }
    for (const route of routes) {
      const { responses } = operation(route.path, route.method) as unknown as { responses: Record<string, { headers: Record<string, { $ref: string }> }> };
      for (const response of Object.values(responses)) expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      const replayed = isWrite(route) ? ['Idempotent-Replayed'] : [];
      expect(Object.keys(responses['200']!.headers)).toEqual(['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', ...replayed]);
      expect(responses['429']!.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    }
  });

  it('declares the optional Idempotency-Key header on every write (POST and GET), and on no read', () => {
    const key = { $ref: '#/components/parameters/IdempotencyKey' };
    expect(doc.components!.parameters!.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
    const writes = routes.filter(isWrite);
    expect(writes.length).toBeGreaterThanOrEqual(18);
    for (const route of routes) {
      const parameters = (operation(route.path, route.method).parameters ?? []) as unknown[];
      expect(parameters.some((parameter) => JSON.stringify(parameter) === JSON.stringify(key)), `${route.method} ${route.path}`).toBe(isWrite(route));
    }
  });

  it('names a component schema for every resource and envelope', () => {
    const names = Object.keys(doc.components!.schemas!);
    expect(names).toEqual(expect.arrayContaining(['Contact', 'ContactPage', 'Channel', 'ChannelList', 'Label', 'Ticket', 'TicketResponse', 'Plan', 'Platform', 'Pagination']));
    for (const route of routes) {
      const { responses } = operation(route.path, route.method);
      for (const response of Object.values(responses)) expect(response.content['application/json'].schema, route.path).toEqual({ $ref: expect.stringMatching(/^#\/components\/schemas\/\w+$/) });
    }
  });

  it('marks a POST body required when its schema requires a field, and gives the required sets of tickets and add-ons', () => {
    for (const route of routes.filter((r) => r.method === 'POST')) {
      const op = operation(route.path, route.method) as Operation & { requestBody: { required?: boolean } };
      const schema = op.requestBody.content['application/json'].schema as Schema;
      expect(op.requestBody.required ?? false, route.path).toBe(Boolean(schema.required?.length || schema.anyOf));
    }
    const body = (path: string) => operation(path, 'POST').requestBody!.content['application/json'].schema as Schema;
    const tickets = body('/api/platform/v1/tickets/manage');
    const required = (schema: Schema) => (schema.anyOf as Schema[]).map((shape) => shape.required);
    expect(required(tickets)).toEqual([['platformId', 'email', 'title', 'description'], ['platformId', 'ticketId']]);
    const addon = body('/api/platform/v1/addon/manage');
    expect(required(addon)).toEqual([['platformId', 'userId', 'addonId'], ['platformId', 'userId', 'planId']]);
    expect((addon.anyOf as Schema[])[1]!.properties!.planId).toMatchObject({ deprecated: true });
    const addonGet = operation('/api/platform/v1/addon/manage', 'GET').parameters as { name: string; required?: boolean }[];
    expect(addonGet.find((p) => p.name === 'addonId')?.required).toBe(true);
    const contacts = operation('/api/workspace/v1/contacts/list', 'POST').responses['400']!.content['application/json'] as { example?: { message: string } };
    expect(contacts.example?.message).toMatch(/^channelId: is required/);
  });

  it('gives request examples with real values (UUIDs, no {{variables}}): the POST body and the GET query values', () => {
    expect(JSON.stringify(doc)).not.toMatch(/\{\{[A-Za-z]/);
    for (const route of routes) {
      const op = operation(route.path, route.method);
      const example = route.metadata.example;
      if (route.method === 'POST') {
        expect(op.requestBody?.content['application/json'].example, route.path).toEqual(example);
      } else {
        const examples = Object.fromEntries(op.parameters.filter((p) => p.in === 'query' && 'example' in p).map((p) => [p.name, p.example]));
        expect(examples, route.path).toEqual(example);
      }
    }
    expect(operation('/api/workspace/v1/contacts/list', 'GET').parameters.find((p) => p.name === 'search')?.example).toBe('ada');
  });

  it('serializes to YAML that reads back as the same definition', () => {
    const yaml = toYaml(doc);
    expect(yaml).toMatch(/^openapi: 3\.0\.\d/m);
    expect(yaml).not.toMatch(/[&*]a\d/); // no anchors/aliases: every tool reads it
    expect(parse(yaml)).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

describe('Postman collection', () => {
  let collection: PostmanCollection;
  type Request = { method: string; url: { raw?: string; path: string[]; host: string[]; query?: { key: string; value: string; disabled?: boolean }[] }; auth?: unknown; header?: { key: string; value?: string }[]; body?: { raw: string } };
  const requests = () => collection.item.flatMap((folder) => (folder.item ?? []).map((item) => item.request as unknown as Request));

  beforeAll(async () => {
    collection = await buildPostmanCollection(buildOpenApi({ serverUrl: 'http://localhost:3000' }));
  });

  it('is a v2.1 collection with one request per route, grouped in one folder per resource', () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.info.name).toBe('Switchboard API');
    expect(requests()).toHaveLength(routes.length);
    expect(collection.item.map((folder) => folder.name)).toEqual(expect.arrayContaining(['workspace.contacts', 'platform.tickets']));
  });

  it('has the collection variables and the X-API-Key auth every request inherits', () => {
    expect(Object.fromEntries(collection.variable!.map((v) => [v.key, v.value]))).toEqual({
      baseUrl: 'http://localhost:3000',
      apiKey: '',
      platformId: '',
      channelId: '',
      userId: '',
      addonId: '',
      ticketId: '',
      contactId: '',
      webhookEndpointId: '',
    });
    expect(collection.auth).toEqual({
      type: 'apikey',
      apikey: expect.arrayContaining([
        { key: 'key', value: 'X-API-Key', type: 'string' },
        { key: 'value', value: '{{apiKey}}', type: 'string' },
        { key: 'in', value: 'header', type: 'string' },
      ]),
    });
    for (const request of requests()) {
      expect(request.auth).toBeUndefined();
      expect(request.url.host).toEqual(['{{baseUrl}}']);
      expect(request.header?.map((h) => h.key.toLowerCase())).not.toContain('x-api-key');
    }
  });

  it('sends the contract examples with ids as {{variables}}: POST bodies and exactly the example query values on GET', () => {
    for (const route of routes) {
      const request = requests().find((r) => r.method === route.method && `/${r.url.path.join('/')}` === route.path)!;
      expect(request, `${route.method} ${route.path}`).toBeDefined();
      // Each sample id becomes the variable of its name in EXAMPLE_IDS (endpointId's is {{webhookEndpointId}}).
      const variableOf = (value: unknown) => Object.entries(EXAMPLE_IDS).find(([, id]) => id === value)?.[0];
      const example = Object.fromEntries(Object.entries(route.metadata.example).map(([k, v]) => [k, variableOf(v) ? `{{${variableOf(v)}}}` : v]));
      if (route.method === 'POST') expect(JSON.parse(request.body!.raw)).toEqual(example);
      else {
        const sent = Object.fromEntries((request.url.query ?? []).filter((q) => !q.disabled).map((q) => [q.key, q.value]));
        expect(sent, route.path).toEqual(Object.fromEntries(Object.entries(example).map(([k, v]) => [k, String(v)])));
      }
    }
  });

  it('gives every write a fresh Idempotency-Key ({{$guid}}), never one shared value', () => {
    const keyed = requests().filter((request) => request.header?.some((header) => header.key === 'Idempotency-Key'));
    expect(keyed).toHaveLength(routes.filter(isWrite).length);
    for (const request of keyed) expect(request.header!.find((header) => header.key === 'Idempotency-Key')).toMatchObject({ value: '{{$guid}}' });
  });

  it('runs a pre-request script before each delete (creating what it deletes) and before addon/manage (looking up empty ids)', () => {
    const items = collection.item.flatMap((folder) => folder.item ?? []) as unknown as { request: Request; event?: { listen: string; script: { exec: string[] } }[] }[];
    const setups = items.filter((item) => item.event?.some((event) => event.listen === 'prerequest'));
    expect(setups.map((item) => `${item.request.method} /${item.request.url.path.join('/')}`).sort()).toEqual([
      'GET /api/platform/v1/addon/manage',
      'GET /api/workspace/v1/contacts/delete',
      'GET /api/workspace/v1/labels/delete',
      'POST /api/platform/v1/addon/manage',
      'POST /api/workspace/v1/contacts/delete',
      'POST /api/workspace/v1/labels/delete',
    ]);
    const script = (path: string) => setups.find((item) => item.request.url.path.join('/') === path)!.event![0]!.script.exec.join('\n');
    expect(script('api/workspace/v1/contacts/delete')).toContain("'/api/workspace/v1/contacts/manage'");
    expect(script('api/workspace/v1/contacts/delete')).toContain("set('contactId', reply.data.id)");
    for (const [variable, list] of [['platformId', 'id/list'], ['userId', 'users/list'], ['addonId', 'addon/list']]) {
      expect(script('api/platform/v1/addon/manage')).toContain(`['${variable}', '/api/platform/v1/${list}'`);
    }
  });

  it('tests every request: status 200, success true, the reply against its schema', () => {
    const items = collection.item.flatMap((folder) => folder.item ?? []) as unknown as { name: string; event?: { listen: string; script: { exec: string[] } }[] }[];
    expect(items).toHaveLength(routes.length);
    for (const item of items) {
      const script = item.event?.find((event) => event.listen === 'test')?.script.exec.join('\n') ?? '';
      expect(script, item.name).toContain('pm.response.to.have.status(200)');
      expect(script, item.name).toContain('pm.expect(reply.success).to.eql(true)');
      expect(script, item.name).toMatch(/pm\.response\.to\.have\.jsonSchema\(\{"type":"object"/);
    }
  });
});
