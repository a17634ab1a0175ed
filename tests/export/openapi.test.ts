import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { ERROR_CODE_STATUS, WEBHOOK_EVENTS, type ErrorCode } from '@switchboard/contract';
import {
  buildOpenApi,
  DEFAULT_SERVER_URL,
  serverRootOf,
  toYaml,
  type OpenAPIObject,
  type PostmanCollection,
} from '@switchboard/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/processes.js';
import { pnpm, run, runBuilding } from '../sdk/commands.js';
import { contractRoutes, isWrite } from './routes.js';

type Schema = { required?: string[]; anyOf?: unknown[]; oneOf?: unknown[]; properties?: Record<string, unknown> };
type Operation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  'x-rate-limit-class': string;
  parameters: {
    name: string;
    in: string;
    example?: unknown;
    content?: { 'application/json'?: { example?: unknown } };
    required?: boolean;
    deprecated?: boolean;
    description?: string;
  }[];
  requestBody?: { content: { 'application/json': { example: unknown; schema: unknown } } };
  responses: Record<
    string,
    {
      description: string;
      content: {
        'application/json': {
          schema: { $ref?: string; properties?: Record<string, unknown> };
          examples?: Record<string, { value: { message: string } }>;
        };
      };
    }
  >;
};

const routes = contractRoutes();

// A deployment's address, as `--server` gives it; the default export's is DEFAULT_SERVER_URL.
const SERVER_URL = 'https://switchboard.acme.test';
const REDOCLY = path.join(REPO_ROOT, 'tests/node_modules/.bin/redocly');
const SPECTRAL = path.join(REPO_ROOT, 'tests/node_modules/.bin/spectral');

describe('pnpm export:api', () => {
  let out: string;
  // The default export (no --server) and one for a deployment: both must lint clean.
  let exports: string[];
  const read = (name: string) => readFileSync(path.join(out, name), 'utf8');

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'switchboard-api-'));
    const byDefault = path.join(out, 'default');
    await runBuilding(pnpm('--silent', 'export:api', '--out', out, '--server', SERVER_URL));
    await runBuilding(pnpm('--silent', 'export:api', '--out', byDefault));
    exports = [out, byDefault];
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes openapi.json, openapi.yaml, the Postman collection and its environment, all from the contract', () => {
    expect(readdirSync(out).sort()).toEqual([
      'default',
      'openapi.json',
      'openapi.yaml',
      'postman_collection.json',
      'switchboard.postman_environment.json',
    ]);
    const json = JSON.parse(read('openapi.json'));
    expect(json).toEqual(JSON.parse(JSON.stringify(buildOpenApi({ serverUrl: SERVER_URL }))));
    expect(parse(read('openapi.yaml'))).toEqual(json);
    const collection = JSON.parse(read('postman_collection.json')) as PostmanCollection;
    expect(collection.variable?.find((v) => v.key === 'baseUrl')?.value).toBe(SERVER_URL);
    expect(JSON.parse(readFileSync(path.join(exports[1]!, 'openapi.json'), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(buildOpenApi())),
    );
  });

  it('writes an openapi.json that validates against the OpenAPI 3.1 schema (swagger-parser)', async () => {
    const written = JSON.parse(read('openapi.json')) as OpenAPIObject;
    // swagger-parser's bundled 3.1 schema still spells the server variable's `description` as `descriptions` (fixed
    // in the OpenAPI repository by OAI/OpenAPI-Specification#2793; APIDevTools/swagger-cli#83), so it refuses the
    // valid `description` of the baseUrl variable: that one field is left out of what it checks. Redocly and Spectral
    // (below) check the document as written.
    for (const server of written.servers ?? [])
      for (const variable of Object.values(server.variables ?? {})) delete variable.description;
    const validated = await SwaggerParser.validate(written as never);
    expect('openapi' in validated && validated.openapi).toMatch(/^3\.1\.\d$/);
    // Every contract endpoint, and the event stream (GET events/stream).
    expect(Object.keys(validated.paths ?? {})).toHaveLength(routes.length / 2 + 1);
    expect(Object.keys(('webhooks' in validated && validated.webhooks) || {})).toEqual(Object.keys(WEBHOOK_EVENTS));
  });

  it(
    'passes `redocly lint` (recommended rules) with zero errors and zero warnings, as JSON and as YAML, by default ' +
      'and with --server',
    async () => {
      for (const dir of exports) {
        for (const file of ['openapi.json', 'openapi.yaml']) {
          const env = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
          const result = await run(REDOCLY, ['lint', file, '--format', 'json'], { cwd: dir, env });
          const report = JSON.parse(result.stdout) as {
            totals: { errors: number; warnings: number };
            problems: { ruleId: string; message: string }[];
          };
          expect(
            report.problems.map((p) => `${p.ruleId}: ${p.message}`),
            `${dir}/${file}`,
          ).toEqual([]);
          expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
          expect(result.code).toBe(0);
        }
      }
    },
  );

  it('passes `spectral lint` (spectral:oas) with no errors or warnings, by default and with --server', async () => {
    for (const dir of exports) {
      writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
      const result = await run(
        SPECTRAL,
        ['lint', 'openapi.json', '--format', 'json', '--ruleset', '.spectral.yaml', '--fail-severity', 'warn'],
        { cwd: dir },
      );
      // The JSON report is followed by a summary line on stdout.
      const problems = JSON.parse(
        result.stdout.slice(result.stdout.indexOf('['), result.stdout.lastIndexOf(']') + 1),
      ) as { code: string; message: string; path: string[] }[];
      expect(
        problems.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`),
        dir,
      ).toEqual([]);
      expect(result.code).toBe(0);
    }
  });
});

describe('OpenAPI definition', () => {
  let doc: OpenAPIObject;
  const operation = (path: string, method: string) => doc.paths[path][method.toLowerCase()] as Operation;
  const componentOf = (ref: { $ref?: string }) => doc.components!.schemas![ref.$ref!.split('/').pop()!] as Schema;
  const component = (response: { content: { 'application/json': { schema: { $ref?: string } } } }) =>
    componentOf(response.content['application/json'].schema);

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
    // The deployment is the `baseUrl` server variable: --server sets its default, else http://localhost:3000.
    expect(doc.servers).toEqual([
      {
        url: '{baseUrl}',
        description: expect.any(String),
        variables: { baseUrl: { default: SERVER_URL, description: expect.any(String) } },
      },
    ]);
    expect(serverRootOf(doc)).toBe(SERVER_URL);
    expect(serverRootOf(buildOpenApi())).toBe(DEFAULT_SERVER_URL);
    expect(DEFAULT_SERVER_URL).toBe('http://localhost:3000');
    expect(doc.components?.securitySchemes).toEqual({
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: expect.any(String) },
      BearerAuth: { type: 'http', scheme: 'bearer', description: expect.any(String) },
    });
    for (const route of routes)
      expect(operation(route.path, route.method).security, route.path).toEqual([
        { ApiKeyAuth: [] },
        { BearerAuth: [] },
      ]);
  });

  it('has a GET and a POST for every contract endpoint, each with unique operationId, summary, tag, rate class', () => {
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

  it('lists every response status the endpoint can give, each failure narrowed to the codes of that status', () => {
    for (const route of routes) {
      const { responses } = operation(route.path, route.method);
      expect(Object.keys(responses).sort(), route.path).toEqual(Object.keys(route.responses).sort());
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429', '500']));
      expect(component(responses['200']!).required).toEqual(expect.arrayContaining(['success', 'data']));
      for (const [status, response] of Object.entries(responses).filter(([status]) => status !== '200')) {
        const envelope = component(response);
        expect(envelope.required, `${route.path} ${status}`).toEqual(['success', 'error', 'message']);
        const codes = (envelope.properties!.error as { enum: ErrorCode[] }).enum;
        expect(
          codes.map((code) => ERROR_CODE_STATUS[code]),
          `${route.path} ${status}`,
        ).toEqual(codes.map(() => Number(status)));
        expect(response.description).not.toBe(status);
      }
    }
    const tickets = operation('/api/platform/v1/tickets/manage', 'POST').responses;
    expect(tickets['404']!.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TicketNotFoundError',
    });
    expect(component(tickets['404']!).properties!.error).toMatchObject({ enum: ['ticket_not_found'] });
    expect(component(tickets['400']!).properties!.error).toMatchObject({ enum: ['invalid_request', 'invalid_json'] });
    const addon = operation('/api/platform/v1/addon/manage', 'POST').responses;
    expect(component(addon['400']!).properties!.error).toMatchObject({
      enum: ['invalid_request', 'invalid_json', 'no_active_subscription'],
    });
    expect(component(addon['404']!).properties!.error).toMatchObject({ enum: ['user_not_found', 'addon_not_found'] });
  });

  it(
    'declares the headers that are always sent as required: X-Request-Id, RateLimit-* (with Policy) once the ' +
      'limiter ran, Retry-After on 429 and 503',
    () => {
      const headers = doc.components!.headers as Record<string, { required?: boolean }>;
      for (const name of [
        'X-Request-Id',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'Retry-After',
      ]) {
        expect(headers[name]?.required, name).toBe(true);
      }
      const rateLimit = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];
      // What each status always carries: the rate limiter's headers only where the limiter has run (a 503 can come
      // while the key is looked up, a 400 from the JSON parser, a 401 or 403 before the limiter).
      const expected: Record<string, string[]> = {
        '200': rateLimit,
        '404': rateLimit,
        '409': rateLimit,
        '422': rateLimit,
        '429': [...rateLimit, 'Retry-After'],
        '502': rateLimit,
        '503': ['Retry-After'],
      };
      for (const route of routes) {
        const { responses } = operation(route.path, route.method) as unknown as {
          responses: Record<string, { headers: Record<string, { $ref: string }> }>;
        };
        for (const [status, response] of Object.entries(responses)) {
          const replayed = status === '200' && isWrite(route) ? ['Idempotent-Replayed'] : [];
          expect(Object.keys(response.headers), `${route.method} ${route.path} ${status}`).toEqual([
            'X-Request-Id',
            ...(expected[status] ?? []),
            ...replayed,
          ]);
          for (const [name, header] of Object.entries(response.headers))
            expect(header).toEqual({ $ref: `#/components/headers/${name}` });
        }
        expect(Object.keys(responses)).toEqual(expect.arrayContaining(['429', '503']));
      }
    },
  );

  it('declares the optional Idempotency-Key header on every write (POST and GET), and on no read', () => {
    const key = { $ref: '#/components/parameters/IdempotencyKey' };
    expect(doc.components!.parameters!.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 255 },
    });
    const writes = routes.filter(isWrite);
    expect(writes.length).toBeGreaterThanOrEqual(18);
    for (const route of routes) {
      const parameters = (operation(route.path, route.method).parameters ?? []) as unknown[];
      expect(
        parameters.some((parameter) => JSON.stringify(parameter) === JSON.stringify(key)),
        `${route.method} ${route.path}`,
      ).toBe(isWrite(route));
    }
  });

  it('names a component schema for every resource and envelope', () => {
    const names = Object.keys(doc.components!.schemas!);
    expect(names).toEqual(
      expect.arrayContaining([
        'Contact',
        'ContactPage',
        'Channel',
        'ChannelList',
        'Label',
        'Ticket',
        'TicketResponse',
        'Plan',
        'Platform',
        'Pagination',
      ]),
    );
    for (const route of routes) {
      const { responses } = operation(route.path, route.method);
      for (const response of Object.values(responses))
        expect(response.content['application/json'].schema, route.path).toEqual({
          $ref: expect.stringMatching(/^#\/components\/schemas\/\w+$/),
        });
    }
  });

  it('marks a POST body required when its schema needs a field, and gives the ticket and add-on required sets', () => {
    for (const route of routes.filter((r) => r.method === 'POST')) {
      const op = operation(route.path, route.method) as Operation & { requestBody: { required?: boolean } };
      const schema = op.requestBody.content['application/json'].schema as Schema;
      expect(op.requestBody.required ?? false, route.path).toBe(
        Boolean(schema.required?.length || schema.anyOf || schema.oneOf),
      );
    }
    const body = (path: string) => operation(path, 'POST').requestBody!.content['application/json'].schema as Schema;
    const tickets = body('/api/platform/v1/tickets/manage');
    const required = (schema: Schema) => (schema.anyOf as Schema[]).map((shape) => shape.required);
    expect(required(tickets)).toEqual([
      ['platformId', 'email', 'title', 'description'],
      ['platformId', 'ticketId'],
    ]);
    const addon = body('/api/platform/v1/addon/manage');
    expect(required(addon)).toEqual([
      ['platformId', 'userId', 'addonId'],
      ['platformId', 'userId', 'planId'],
    ]);
    expect((addon.anyOf as Schema[])[1]!.properties!.planId).toMatchObject({ deprecated: true });
  });

  it(
    'documents on GET only what every current form needs: addonId (planId a deprecated alias), no field of one form ' +
      'among several (create or update, id or name)',
    () => {
      const query = (path: string) => Object.fromEntries(operation(path, 'GET').parameters.map((p) => [p.name, p]));
      const addon = query('/api/platform/v1/addon/manage');
      expect(addon.addonId).toMatchObject({ required: true });
      expect(addon.planId).toMatchObject({ deprecated: true });
      expect(addon.planId!.required).toBeUndefined();
      const forms = {
        '/api/platform/v1/tickets/manage': ['ticketId', 'email', 'title', 'description'],
        '/api/platform/v1/webhooks/manage': ['endpointId', 'url', 'events', 'deliveryId'],
        '/api/workspace/v1/contacts/get': ['phone', 'contactId'],
        '/api/workspace/v1/labels/delete': ['name', 'labelId'],
      };
      for (const [path, fields] of Object.entries(forms)) {
        for (const field of fields) {
          expect(query(path)[field]!.required, `${path} ${field}`).toBeUndefined();
          expect(query(path)[field]!.description, `${path} ${field}`).toMatch(
            /Needed in one of these forms: `\w+`( \+ `\w+`)*(,? `\w+`( \+ `\w+`)*)*,? or `\w+`\.$/,
          );
        }
      }
      expect(query('/api/platform/v1/tickets/manage').email!.description).toContain(
        'Needed in one of these forms: `email` + `title` + `description` or `ticketId`.',
      );
      expect(query('/api/platform/v1/tickets/manage').platformId).toMatchObject({ required: true });
      expect(query('/api/platform/v1/webhooks/manage').deliveryId!.description).toMatch(
        /forms: `url` \+ `events`, `endpointId`, or `deliveryId`\.$/,
      );
      // The form before `action`: deprecated, in no form to document as needed.
      expect(query('/api/platform/v1/webhooks/manage').redeliver).toMatchObject({ deprecated: true });
      expect(query('/api/platform/v1/webhooks/manage').redeliver!.description).not.toContain('Needed');
      expect(query('/api/workspace/v1/contacts/get').phone).toMatchObject({
        description: expect.stringMatching(/forms: `phone` or `contactId`\.$/),
      });
    },
  );

  it('tells, on every operation that takes channelId, when it is needed, with the documented 400', () => {
    const scoped = routes.filter((route) => 'channelIdRequired' in route.metadata.failureExamples);
    expect(scoped.length).toBeGreaterThanOrEqual(22);
    for (const route of routes) {
      const op = operation(route.path, route.method);
      const schema = op.requestBody?.content['application/json'].schema as Schema | undefined;
      const properties = {
        ...schema?.properties,
        ...Object.assign({}, ...((schema?.anyOf ?? schema?.oneOf ?? []) as Schema[]).map((shape) => shape.properties)),
      };
      const channelId =
        route.method === 'GET'
          ? op.parameters.find((p) => p.name === 'channelId')
          : (properties.channelId as { description?: string } | undefined);
      expect(Boolean(channelId), `${route.method} ${route.path}`).toBe(scoped.includes(route));
      if (!channelId) continue;
      expect(channelId.description, route.path).toMatch(/required when it has several/);
      const example = op.responses['400']!.content['application/json'].examples?.channelIdRequired;
      expect(example?.value, `${route.method} ${route.path}`).toEqual({
        success: false,
        error: 'invalid_request',
        message: expect.stringMatching(/^channelId: is required: /),
      });
    }
  });

  it('tells when templates/send needs variables (the template has placeholders), with the documented 400', () => {
    for (const method of ['POST', 'GET']) {
      const op = operation('/api/workspace/v1/chat/templates/send', method);
      const variables =
        method === 'GET'
          ? op.parameters.find((p) => p.name === 'variables')
          : ((op.requestBody!.content['application/json'].schema as Schema).properties!.variables as {
              description: string;
            });
      expect(variables?.description).toMatch(
        /Required when the template has placeholders: exactly its `variableCount` values/,
      );
      expect(op.responses['400']!.content['application/json'].examples?.variablesRequired?.value).toEqual({
        success: false,
        error: 'invalid_request',
        message: 'variables: template "order_update" expects 2 values, got 0',
      });
    }
  });

  it('gives request examples with real values (UUIDs, no {{variables}}): POST body and GET query values', () => {
    expect(JSON.stringify(doc)).not.toMatch(/\{\{[A-Za-z]/);
    for (const route of routes) {
      const op = operation(route.path, route.method);
      const example = route.metadata.example;
      if (route.method === 'POST') {
        expect(op.requestBody?.content['application/json'].example, route.path).toEqual(example);
      } else {
        // A JSON-encoded parameter (an object, a list of objects) carries its example on its media type.
        const exampleOf = (p: (typeof op.parameters)[number]) =>
          'example' in p ? p.example : p.content?.['application/json']?.example;
        const examples = Object.fromEntries(
          op.parameters
            .filter((p) => p.in === 'query' && exampleOf(p) !== undefined)
            .map((p) => [p.name, exampleOf(p)]),
        );
        expect(examples, route.path).toEqual(example);
      }
    }
    expect(
      operation('/api/workspace/v1/contacts/list', 'GET').parameters.find((p) => p.name === 'search')?.example,
    ).toBe('ada');
  });

  it('shows each kind of chat/message/send as an example of its form (buttons, list, link, reaction, location)', () => {
    const path = '/api/workspace/v1/chat/message/send';
    const schema = operation(path, 'POST').requestBody!.content['application/json'].schema as {
      oneOf: { properties: { type: { enum: string[] } }; examples?: { type: string }[] }[];
    };
    const examplesOf = (type: string) =>
      schema.oneOf.find((form) => form.properties.type.enum[0] === type)?.examples?.map((example) => example);
    const more = Object.values(routes.find((r) => r.method === 'POST' && r.path === path)!.metadata.moreExamples!);
    expect(examplesOf('interactive')).toEqual(more.filter((m) => m.value.type === 'interactive').map((m) => m.value));
    expect(examplesOf('interactive')).toHaveLength(3);
    expect(examplesOf('reaction')).toHaveLength(1);
    expect(examplesOf('location')).toHaveLength(1);
  });

  it('serializes to YAML that reads back as the same definition', () => {
    const yaml = toYaml(doc);
    expect(yaml).toMatch(/^openapi: 3\.1\.\d/m);
    expect(yaml).not.toMatch(/[&*]a\d/); // no anchors/aliases: every tool reads it
    expect(parse(yaml)).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
