import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApi, buildPostmanCollection, toYaml, type OpenAPIObject, type PostmanCollection } from '@switchboard/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/processes.js';
import { pnpm, run, runBuilding } from '../sdk/commands.js';
import { contractRoutes } from './routes.js';

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

const SERVER_URL = 'https://switchboard.example.com';
const REDOCLY = path.join(REPO_ROOT, 'tests/node_modules/.bin/redocly');

describe('pnpm export:api', () => {
  let out: string;
  const read = (name: string) => readFileSync(path.join(out, name), 'utf8');

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'switchboard-api-'));
    await runBuilding(pnpm('--silent', 'export:api', '--out', out, '--server-url', SERVER_URL));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes openapi.json, openapi.yaml and postman_collection.json, all from the contract', () => {
    expect(readdirSync(out).sort()).toEqual(['openapi.json', 'openapi.yaml', 'postman_collection.json']);
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

  it('passes `redocly lint` (recommended rules) with zero errors, as JSON and as YAML', async () => {
    for (const file of ['openapi.json', 'openapi.yaml']) {
      const env = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const result = await run(REDOCLY, ['lint', file, '--format', 'json'], { cwd: out, env });
      const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
      expect(report.problems.filter((p) => p.severity === 'error'), file).toEqual([]);
      expect(report.totals.errors).toBe(0);
      expect(report.problems.filter((p) => !ACCEPTED_REDOCLY_WARNINGS.includes(p.ruleId)), file).toEqual([]);
      expect(result.code).toBe(0);
    }
  });
});

/**
 * Warnings of redocly's recommended rules that the definition carries on purpose: no license is chosen, the
 * servers are localhost/example.com, and examples hold Postman `{{userId}}`-style variables where a UUID goes.
 */
const ACCEPTED_REDOCLY_WARNINGS = ['info-license', 'no-server-example.com', 'no-invalid-parameter-examples', 'no-invalid-media-type-examples'];

describe('OpenAPI definition', () => {
  let doc: OpenAPIObject;
  const operation = (path: string, method: string) => doc.paths[path][method.toLowerCase()] as Operation;

  beforeAll(() => {
    doc = buildOpenApi({ serverUrl: SERVER_URL });
  });

  it('carries version 1.0.0, the server root and both security schemes, required everywhere', () => {
    expect(doc.info).toMatchObject({ title: 'Switchboard API', version: '1.0.0' });
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

  it('lists every response status the endpoint can give, success and failure in the envelope', () => {
    const envelope = doc.components?.schemas?.ErrorEnvelope as { properties: Record<string, unknown>; required: string[] };
    expect(envelope.required).toEqual(['success', 'error', 'message']);
    for (const route of routes) {
      const { responses } = operation(route.path, route.method);
      expect(Object.keys(responses).sort(), route.path).toEqual(Object.keys(route.responses).sort());
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429', '500']));
      expect(Object.keys(responses['200']!.content['application/json'].schema.properties!)).toEqual(expect.arrayContaining(['success', 'data']));
      for (const [status, response] of Object.entries(responses).filter(([status]) => status !== '200')) {
        expect(response.content['application/json'].schema, `${route.path} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        expect(response.description).not.toBe(status);
      }
    }
    expect(Object.keys(operation('/api/platform/v1/tickets/manage', 'POST').responses)).toContain('404');
    expect(operation('/api/workspace/v1/contacts/list', 'POST').responses['429']).toMatchObject({ headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } });
  });

  it('gives request examples: the POST body and the GET query values', () => {
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
  type Request = { method: string; url: { raw?: string; path: string[]; host: string[]; query?: { key: string; value: string; disabled?: boolean }[] }; auth?: unknown; header?: { key: string }[]; body?: { raw: string } };
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

  it('sends the contract examples: POST bodies and exactly the example query values on GET', () => {
    for (const route of routes) {
      const request = requests().find((r) => r.method === route.method && `/${r.url.path.join('/')}` === route.path)!;
      expect(request, `${route.method} ${route.path}`).toBeDefined();
      if (route.method === 'POST') expect(JSON.parse(request.body!.raw)).toEqual(route.metadata.example);
      else {
        const sent = Object.fromEntries((request.url.query ?? []).filter((q) => !q.disabled).map((q) => [q.key, q.value]));
        expect(sent, route.path).toEqual(Object.fromEntries(Object.entries(route.metadata.example).map(([k, v]) => [k, String(v)])));
      }
    }
  });
});
