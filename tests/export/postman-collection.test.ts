import { EXAMPLE_IDS, WEBHOOK_EVENTS } from '@switchboard/contract';
import { buildOpenApi, buildPostmanCollection, type PostmanCollection } from '@switchboard/openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectionRequestCount, contractRoutes, isWrite } from './routes.js';

const routes = contractRoutes();

describe('Postman collection', () => {
  let collection: PostmanCollection;
  type Request = {
    method: string;
    url: { raw?: string; path: string[]; host: string[]; query?: { key: string; value: string; disabled?: boolean }[] };
    auth?: unknown;
    header?: { key: string; value?: string }[];
    body?: { raw: string };
  };
  /** The API's folders: every one but `webhooks` (the events' examples, sent to the user's own receiver). */
  const apiFolders = () => collection.item.filter((folder) => folder.name !== 'webhooks');
  const requests = () =>
    apiFolders().flatMap((folder) => (folder.item ?? []).map((item) => item.request as unknown as Request));

  beforeAll(async () => {
    collection = await buildPostmanCollection(buildOpenApi({ serverUrl: 'http://localhost:3000' }));
  });

  it('is a v2.1 collection with one request per route, grouped in one folder per resource', () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.info.name).toBe('Switchboard API');
    expect(requests()).toHaveLength(collectionRequestCount(routes));
    expect(collection.item.map((folder) => folder.name)).toEqual(
      expect.arrayContaining(['workspace.contacts', 'platform.tickets']),
    );
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
      automationId: '',
      broadcastId: '',
      scheduledMsgid: '',
      sentMsgid: '',
      customerMsgid: '',
      photoMsgid: '',
      templateName: '',
      webhookEndpointId: '',
      webhookUrl: '',
      webhookSecret: '',
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

  it('sends the contract examples with ids as {{variables}}: POST bodies, exactly the example GET queries', () => {
    for (const route of routes) {
      const request = requests().find((r) => r.method === route.method && `/${r.url.path.join('/')}` === route.path)!;
      expect(request, `${route.method} ${route.path}`).toBeDefined();
      // Each sample id becomes the variable of its name in EXAMPLE_IDS (endpointId's is {{webhookEndpointId}}).
      const variableOf = (value: unknown) => Object.entries(EXAMPLE_IDS).find(([, id]) => id === value)?.[0];
      const example = Object.fromEntries(
        Object.entries(route.metadata.example).map(([k, v]) => [k, variableOf(v) ? `{{${variableOf(v)}}}` : v]),
      );
      if (route.method === 'POST') expect(JSON.parse(request.body!.raw)).toEqual(example);
      else {
        const sent = Object.fromEntries(
          (request.url.query ?? []).filter((q) => !q.disabled).map((q) => [q.key, q.value]),
        );
        // An object, or a list of objects, travels as JSON text (the OpenAPI's `content` parameters).
        const queryText = (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !(Array.isArray(value) && value.every((each) => typeof each !== 'object'))
            ? JSON.stringify(value)
            : String(value);
        expect(sent, route.path).toEqual(
          Object.fromEntries(Object.entries(example).map(([k, v]) => [k, queryText(v)])),
        );
      }
    }
  });

  it('sends each further example of an endpoint as a request of its own (chat/message/send: every kind)', () => {
    const sendPath = '/api/workspace/v1/chat/message/send';
    const route = routes.find((each) => each.method === 'POST' && each.path === sendPath)!;
    const bodies = requests()
      .filter((request) => request.method === 'POST' && `/${request.url.path.join('/')}` === sendPath)
      .map((request) => JSON.parse(request.body!.raw) as { channelId: string; type?: string });
    const more = Object.values(route.metadata.moreExamples!);
    expect(bodies.map((body) => body.type ?? 'text')).toEqual(['text', ...more.map((each) => each.value.type)]);
    const withVariables = (value: object) =>
      JSON.parse(JSON.stringify(value).replaceAll(JSON.stringify(EXAMPLE_IDS.customerMsgid), '"{{customerMsgid}}"'));
    expect(bodies.slice(1)).toEqual(more.map((each) => ({ ...withVariables(each.value), channelId: '{{channelId}}' })));
  });

  it('gives every write a fresh Idempotency-Key ({{$guid}}), never one shared value', () => {
    const keyed = requests().filter((request) => request.header?.some((header) => header.key === 'Idempotency-Key'));
    expect(keyed).toHaveLength(collectionRequestCount(routes.filter(isWrite)));
    for (const request of keyed)
      expect(request.header!.find((header) => header.key === 'Idempotency-Key')).toMatchObject({ value: '{{$guid}}' });
  });

  it(
    'runs a pre-request script before each delete and cancel (creating what it deletes), before addon/manage ' +
      '(looking up empty ids), before webhooks/manage and chat/templates/manage (deleting what an earlier run ' +
      'created at its URL, under its name) and before ' +
      'automations/manage and chat/media/get (making what they need when its variable is empty)',
    () => {
      const items = apiFolders().flatMap((folder) => folder.item ?? []) as unknown as {
        request: Request;
        event?: { listen: string; script: { exec: string[] } }[];
      }[];
      const setups = items.filter((item) => item.event?.some((event) => event.listen === 'prerequest'));
      expect(setups.map((item) => `${item.request.method} /${item.request.url.path.join('/')}`).sort()).toEqual([
        'GET /api/platform/v1/addon/manage',
        'GET /api/platform/v1/webhooks/manage',
        'GET /api/workspace/v1/automations/manage',
        'GET /api/workspace/v1/broadcasts/manage',
        'GET /api/workspace/v1/chat/media/get',
        'GET /api/workspace/v1/chat/message/cancel',
        'GET /api/workspace/v1/chat/templates/manage',
        'GET /api/workspace/v1/contacts/delete',
        'GET /api/workspace/v1/labels/delete',
        'POST /api/platform/v1/addon/manage',
        'POST /api/platform/v1/webhooks/manage',
        'POST /api/workspace/v1/automations/manage',
        'POST /api/workspace/v1/broadcasts/manage',
        'POST /api/workspace/v1/chat/media/get',
        'POST /api/workspace/v1/chat/message/cancel',
        'POST /api/workspace/v1/chat/templates/manage',
        'POST /api/workspace/v1/contacts/delete',
        'POST /api/workspace/v1/labels/delete',
      ]);
      const script = (path: string) =>
        setups.find((item) => item.request.url.path.join('/') === path)!.event![0]!.script.exec.join('\n');
      expect(script('api/workspace/v1/contacts/delete')).toContain("'/api/workspace/v1/contacts/manage'");
      expect(script('api/workspace/v1/contacts/delete')).toContain("set('contactId', reply.data.id)");
      expect(script('api/workspace/v1/chat/message/cancel')).toContain("set('scheduledMsgid', reply.data.msgid)");
      // The template the scheduled send and the broadcast use is looked up first, then the setup runs.
      for (const path of ['api/workspace/v1/chat/message/cancel', 'api/workspace/v1/broadcasts/manage']) {
        expect(script(path)).toContain("['templateName', '/api/workspace/v1/chat/templates/list'");
        expect(script(path)).toContain('return afterLookups();');
      }
      expect(script('api/workspace/v1/chat/media/get')).toMatch(
        /^if \(!pm\.variables\.get\('photoMsgid'\)\) \{\n[^]*'\/api\/workspace\/v1\/sandbox\/receive'/,
      );
      expect(script('api/platform/v1/webhooks/manage')).toContain("'/api/platform/v1/webhooks/list'");
      expect(script('api/platform/v1/webhooks/manage')).toContain('delete: true');
      expect(script('api/workspace/v1/chat/templates/manage')).toContain("action: 'delete', templateId: found.id");
      for (const [variable, list] of [
        ['platformId', 'id/list'],
        ['userId', 'users/list'],
        ['addonId', 'addon/list'],
      ]) {
        expect(script('api/platform/v1/addon/manage')).toContain(`['${variable}', '/api/platform/v1/${list}'`);
      }
    },
  );

  it('tests every request: status 200, success true, the reply against its schema', () => {
    const items = apiFolders().flatMap((folder) => folder.item ?? []) as unknown as {
      name: string;
      event?: { listen: string; script: { exec: string[] } }[];
    }[];
    expect(items).toHaveLength(collectionRequestCount(routes));
    for (const item of items) {
      const script = item.event?.find((event) => event.listen === 'test')?.script.exec.join('\n') ?? '';
      expect(script, item.name).toContain('pm.response.to.have.status(200)');
      expect(script, item.name).toContain('pm.expect(reply.success).to.eql(true)');
      expect(script, item.name).toMatch(/pm\.response\.to\.have\.jsonSchema\(\{"type":"object"/);
    }
  });

  it('has a webhooks folder with each event’s example, signed for {{webhookUrl}} with {{webhookSecret}}', () => {
    const folder = collection.item.find((item) => item.name === 'webhooks')!;
    const items = (folder.item ?? []) as unknown as {
      request: Request & { url: { raw: string } };
      event: { listen: string; script: { exec: string[] } }[];
    }[];
    expect(items.map((item) => JSON.parse(item.request.body!.raw))).toEqual(
      Object.entries(WEBHOOK_EVENTS).map(([type, event]) => ({ type, ...event.example })),
    );
    for (const { request, event } of items) {
      expect(request).toMatchObject({ method: 'POST', url: { raw: '{{webhookUrl}}' } });
      expect(request.auth).toBeUndefined();
      const script = (listen: string) => event.find((each) => each.listen === listen)!.script.exec.join('\n');
      expect(script('prerequest')).toContain('pm.execution.skipRequest()');
      expect(script('prerequest')).toContain("CryptoJS.HmacSHA256(id + '.' + timestamp + '.' + body, key)");
      expect(script('test')).toContain('pm.response.to.be.success');
    }
  });
});
