import { randomBytes, randomUUID } from 'node:crypto';
import type { SeedFile } from '@switchboard/server';
import { afterAll, describe, expect } from 'vitest';
import type { PortalContext } from '../../apps/server/src/portal/portal-context.js';
import { channelRoutes } from '../../apps/server/src/portal/channels.router.js';
import { keyRoutes } from '../../apps/server/src/portal/keys.router.js';
import { toolRoutes } from '../../apps/server/src/portal/tools.router.js';
import { webhookRoutes } from '../../apps/server/src/portal/webhooks.router.js';
import { sql } from '../helpers/database.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import type { TestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';
import { PortalAgent, type Form, type PortalReply } from '../portal/portal-helpers.js';
import { credentialsOf, whatsAppAccount } from '../whatsapp/whatsapp-fixtures.js';

/**
 * Issue #22 item 1: every page and form of the Developer Portal, walked as each kind of user, answers as the API
 * answers the same user's key for the same action: the same success, the same 403, the same 404. Before the fix a
 * user with `settings:api` but no platform access created platform webhooks, read their secrets and delivery logs,
 * and replaced the WhatsApp credentials of channels they are not a member of.
 */
const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: [] },
});
afterAll(() => graph.close());

const PASSWORD = 'walk every page';
const KINDS = ['owner', 'member', 'apiOnly', 'otherOwner'] as const;
type Kind = (typeof KINDS)[number];

interface Walker {
  kind: Kind;
  key: string;
  platformId: string;
  agent: PortalAgent;
  post(path: string, form?: Form): Promise<PortalReply>;
}

interface World {
  users: Record<Kind, Walker>;
  channels: { aMain: string; aSecond: string; bMain: string };
  endpoints: { a: string; b: string };
}

function worldSeed(tag: string): SeedFile {
  const api = ['settings:api'];
  const user = (ref: string, platform: string, extra: object) => ({
    ref,
    platform,
    email: `${ref}-${tag}@example.com`,
    name: ref,
    password: PASSWORD,
    apiKey: true,
    ...extra,
  });
  return {
    platforms: [
      { ref: 'a', name: 'Walk A', domain: `a-${tag}.example.com` },
      { ref: 'b', name: 'Walk B', domain: `b-${tag}.example.com` },
    ],
    users: [
      user('owner', 'a', { role: 'owner', platformAccess: true, permissions: ['platform:view', ...api] }),
      user('member', 'a', { permissions: api }),
      user('apiOnly', 'a', { permissions: api }),
      user('otherOwner', 'b', { role: 'owner', platformAccess: true, permissions: ['platform:view', ...api] }),
    ],
    channels: [
      { ref: 'aMain', platform: 'a', name: 'A main', phone: '15550001111', users: ['owner', 'member'] },
      { ref: 'aSecond', platform: 'a', name: 'A second', phone: '15550002222', users: ['owner'] },
      { ref: 'bMain', platform: 'b', name: 'B main', phone: '15550003333', users: ['otherOwner'] },
    ],
  };
}

async function createWorld(server: TestServer): Promise<World> {
  const tag = randomBytes(4).toString('hex');
  const seed = worldSeed(tag);
  const ids = await server.seed(seed);
  const hook = async (key: string, platformId: string) =>
    (
      await server
        .client(key)
        .platform.webhooks.manage({ platformId, url: `https://hooks.example.com/${tag}`, events: ['ticket.closed'] })
    ).data.id;
  const users = {} as Record<Kind, Walker>;
  for (const kind of KINDS) {
    const agent = new PortalAgent(server.baseUrl);
    const email = seed.users!.find((u) => u.ref === kind)!.email;
    expect((await agent.signIn(email, PASSWORD)).status, kind).toBe(303);
    const token = PortalAgent.csrf((await agent.get('/developer/keys')).text);
    users[kind] = {
      kind,
      key: ids.users![kind]!.apiKey!,
      platformId: ids.platforms![kind === 'otherOwner' ? 'b' : 'a']!,
      agent,
      post: (path, form = {}) => agent.post(path, { _csrf: token, ...form }),
    };
  }
  return {
    users,
    channels: { aMain: ids.channels!.aMain!, aSecond: ids.channels!.aSecond!, bMain: ids.channels!.bMain! },
    endpoints: {
      a: await hook(users.owner.key, users.owner.platformId),
      b: await hook(users.otherOwner.key, users.otherOwner.platformId),
    },
  };
}

const test = base.extend('world', { scope: 'file' }, ({ server }) => createWorld(server));
test.override('serverEnv', {
  // The walk makes each call twice (API and portal) for several users: more than a minute's default budgets.
  RATE_LIMIT_API_READ: '10000',
  RATE_LIMIT_API_WRITE: '10000',
  RATE_LIMIT_API_ADMIN_WRITE: '10000',
  WHATSAPP_GRAPH_URL: graph.url,
  WHATSAPP_GRAPH_VERSION: graph.version,
  TEMPLATE_SYNC_MINUTES: '0',
});

/** A portal status as the outcome the API would name: success (a page or a redirect), 403, 404, 400. */
const portalOutcome = (status: number) => (status === 200 || status === 303 ? 'ok' : String(status));
const apiOutcome = (status: number) => (status === 200 ? 'ok' : String(status));

async function api(server: TestServer, user: Walker, path: string, params: Record<string, unknown>) {
  return server.http.post(`/api${path}`, params, { headers: { 'X-API-Key': user.key } });
}

/** A failed delivery of the endpoint, as the worker leaves one: something to redeliver. */
async function failedDelivery(databaseUrl: string, endpointId: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    databaseUrl,
    `insert into webhook_deliveries (endpoint_id, webhook_id, event_type, payload, status, attempts)
     values ($1, $2, 'ticket.closed', '{}', 'failed', 1) returning id`,
    [endpointId, `msg_${randomUUID().replaceAll('-', '')}`],
  );
  return row!.id;
}

/** The portal's own routes, read from its routers: the walk below must cover every one of them. */
function portalRoutes(): string[] {
  const ctx = {} as PortalContext;
  const routers = [keyRoutes(ctx), channelRoutes(ctx), webhookRoutes(ctx), toolRoutes(ctx)];
  return routers.flatMap((router) =>
    (router.stack as { route?: { path: string; methods: Record<string, boolean> } }[]).flatMap(({ route }) =>
      route ? Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${route.path}`) : [],
    ),
  );
}

const walked = new Set<string>();
/** Records which portal route a step exercised, by its Express pattern. */
const step = (route: string) => walked.add(route);

// Every sign-in is a scrypt run at OWASP's cost (128 MiB, up to seconds on a loaded 2-core machine).
describe('the Developer Portal obeys the API’s access rules', { timeout: 300_000 }, () => {
  test('webhook pages and forms answer as webhooks/list, manage and deliveries do', async ({ server, world }) => {
    const { users, endpoints } = world;
    for (const kind of KINDS) {
      const user = users[kind];
      const platformId = user.platformId;
      const listing = await api(server, user, '/platform/v1/webhooks/list', { platformId });
      const page = await user.agent.get('/developer/webhooks');
      step('GET /webhooks');
      expect(portalOutcome(page.status), `${kind} GET /webhooks`).toBe(apiOutcome(listing.status));
      if (listing.status === 200) {
        for (const endpoint of listing.data.data as { id: string }[]) expect(page.text).toContain(endpoint.id);
        expect(page.text).not.toContain(kind === 'otherOwner' ? endpoints.a : endpoints.b);
      }

      const url = `https://hooks.example.com/walk-${kind}`;
      const created = await api(server, user, '/platform/v1/webhooks/manage', {
        platformId,
        url: `${url}/api`,
        events: 'ticket.closed',
      });
      const form = await user.post('/developer/webhooks', { url: `${url}/portal`, events: ['ticket.closed'] });
      step('POST /webhooks');
      expect(portalOutcome(form.status), `${kind} POST /webhooks`).toBe(apiOutcome(created.status));
      if (form.status !== 200) expect(form.text).not.toMatch(/whsec_/);

      for (const [target, endpointId] of [
        ['own platform’s endpoint', endpoints.a],
        ['platform B’s endpoint', endpoints.b],
        ['a missing endpoint', randomUUID()],
      ] as const) {
        const what = `${kind} on ${target}`;
        const deliveries = await api(server, user, '/platform/v1/webhooks/deliveries', { platformId, endpointId });
        for (const path of ['', '/rotate', '/delete']) {
          const reply = await user.agent.get(`/developer/webhooks/${endpointId}${path}`);
          step(`GET /webhooks/:endpointId${path}`);
          expect(portalOutcome(reply.status), `${what} GET ${path || 'detail'}`).toBe(apiOutcome(deliveries.status));
        }
        const enable = await api(server, user, '/platform/v1/webhooks/manage', {
          platformId,
          endpointId,
          enabled: true,
        });
        const enabled = await user.post(`/developer/webhooks/${endpointId}/enabled`, { enabled: 'true' });
        step('POST /webhooks/:endpointId/enabled');
        expect(portalOutcome(enabled.status), `${what} enable`).toBe(apiOutcome(enable.status));

        const rotate = await api(server, user, '/platform/v1/webhooks/manage', {
          platformId,
          endpointId,
          rotateSecret: true,
        });
        const rotated = await user.post(`/developer/webhooks/${endpointId}/rotate`);
        step('POST /webhooks/:endpointId/rotate');
        expect(portalOutcome(rotated.status), `${what} rotate`).toBe(apiOutcome(rotate.status));
        if (rotated.status !== 200) expect(rotated.text).not.toMatch(/whsec_/);

        const missing = endpointId !== endpoints.a && endpointId !== endpoints.b;
        const delivery = () =>
          missing ? Promise.resolve(randomUUID()) : failedDelivery(server.databaseUrl, endpointId);
        const [mine, theirs] = [await delivery(), await delivery()];
        const redeliver = await api(server, user, '/platform/v1/webhooks/manage', { platformId, redeliver: theirs });
        const redelivered = await user.post(`/developer/webhooks/${endpointId}/deliveries/${mine}/redeliver`);
        step('POST /webhooks/:endpointId/deliveries/:deliveryId/redeliver');
        expect(portalOutcome(redelivered.status), `${what} redeliver`).toBe(apiOutcome(redeliver.status));
      }

      // Deleting: another platform's and a missing endpoint as they are; the own platform's through throwaways.
      for (const endpointId of [endpoints.a, endpoints.b, randomUUID()]) {
        // The owner's own endpoint is deleted through throwaways below: the rest of the walk still needs it.
        if (kind === 'owner' && endpointId === endpoints.a) continue;
        const target = endpointId;
        const removal = await api(server, user, '/platform/v1/webhooks/manage', {
          platformId,
          endpointId: target,
          delete: true,
        });
        const removed = await user.post(`/developer/webhooks/${target}/delete`);
        step('POST /webhooks/:endpointId/delete');
        expect(portalOutcome(removed.status), `${kind} delete ${target}`).toBe(
          // The API deleted it first when it could: the portal then finds nothing (404), as the API would now.
          removal.status === 200 ? '404' : apiOutcome(removal.status),
        );
      }
      if (kind === 'owner') {
        const throwaways = await Promise.all(
          ['portal', 'api'].map(
            async (via) =>
              (
                await server
                  .client(user.key)
                  .platform.webhooks.manage({ platformId, url: `${url}/${via}-gone`, events: ['ticket.closed'] })
              ).data.id,
          ),
        );
        const removal = await api(server, user, '/platform/v1/webhooks/manage', {
          platformId,
          endpointId: throwaways[1],
          delete: true,
        });
        const removed = await user.post(`/developer/webhooks/${throwaways[0]}/delete`);
        expect([portalOutcome(removed.status), apiOutcome(removal.status)]).toEqual(['ok', 'ok']);
      }
    }
  });

  test('channel pages answer as the channel rule of every workspace endpoint', async ({ server, world }) => {
    const { users, channels } = world;
    for (const kind of KINDS) {
      const user = users[kind];
      const listing = await api(server, user, '/workspace/v1/channels/list', {});
      const page = await user.agent.get('/developer/channels');
      step('GET /channels');
      expect(portalOutcome(page.status), `${kind} GET /channels`).toBe(apiOutcome(listing.status));
      const shown = [...page.text.matchAll(/\/developer\/channels\/([0-9a-f-]{36})\/connect/g)].map((m) => m[1]);
      expect(new Set(shown), `${kind}'s channels`).toEqual(
        new Set((listing.data.data as { id: string }[]).map((c) => c.id)),
      );

      for (const [target, channelId] of [
        ['A main', channels.aMain],
        ['A second', channels.aSecond],
        ['B main', channels.bMain],
        ['a missing channel', randomUUID()],
      ] as const) {
        const what = `${kind} on ${target}`;
        const scoped = await api(server, user, '/workspace/v1/chat/templates/list', { channelId });
        const connectPage = await user.agent.get(`/developer/channels/${channelId}/connect`);
        step('GET /channels/:channelId/connect');
        expect(portalOutcome(connectPage.status), `${what} GET connect`).toBe(apiOutcome(scoped.status));
        const connect = await user.post(`/developer/channels/${channelId}/connect`, credentialsOf(account));
        step('POST /channels/:channelId/connect');
        expect(portalOutcome(connect.status), `${what} POST connect`).toBe(apiOutcome(scoped.status));
      }
    }
  });

  test('key pages are each user’s own; the reference and downloads carry only ids the API shows the user', async ({
    server,
    world,
  }) => {
    const { users } = world;
    const prefixes: Partial<Record<Kind, string>> = {};
    for (const kind of KINDS) {
      const user = users[kind];
      expect((await user.agent.get('/developer/keys')).status).toBe(200);
      step('GET /keys');
      const created = await user.post('/developer/keys', { name: `walk ${kind}` });
      step('POST /keys');
      expect(created.status).toBe(200);
      prefixes[kind] = /value="(sb_live_[^"]+)"/.exec(created.text)![1]!.slice(0, 16);
    }
    for (const kind of KINDS) {
      const user = users[kind];
      for (const other of KINDS) {
        const expected = other === kind ? 'ok' : '404';
        expect(portalOutcome((await user.agent.get(`/developer/keys/${prefixes[other]}/revoke`)).status)).toBe(
          expected,
        );
        step('GET /keys/:prefix/revoke');
        if (other !== kind) {
          expect(portalOutcome((await user.post(`/developer/keys/${prefixes[other]}/revoke`)).status)).toBe('404');
          step('POST /keys/:prefix/revoke');
        }
      }
      for (const path of [
        '/reference',
        '/downloads',
        '/downloads/openapi.json',
        '/downloads/openapi.yaml',
        '/downloads/postman.json',
      ]) {
        expect((await user.agent.get(`/developer${path}`)).status, `${kind} ${path}`).toBe(200);
        step(`GET ${path}`);
      }
      const environment = JSON.parse((await user.agent.get('/developer/downloads/postman-environment.json')).text) as {
        values: { key: string; value: string }[];
      };
      step('GET /downloads/postman-environment.json');
      const definition = await user.agent.get('/developer/reference/openapi.json');
      step('GET /reference/openapi.json');
      const ids = Object.fromEntries(environment.values.map(({ key, value }) => [key, value]));
      const webhooks = await api(server, user, '/platform/v1/webhooks/list', { platformId: user.platformId });
      const channels = await api(server, user, '/workspace/v1/channels/list', {});
      const visibleHooks = webhooks.status === 200 ? (webhooks.data.data as { id: string }[]).map((e) => e.id) : [];
      const visibleChannels = (channels.data.data as { id: string }[]).map((c) => c.id);
      expect(ids.platformId === user.platformId, `${kind} platformId`).toBe(webhooks.status === 200);
      if (ids.webhookEndpointId) expect(visibleHooks).toContain(ids.webhookEndpointId);
      else expect(visibleHooks).toEqual([]);
      if (ids.channelId) expect(visibleChannels).toContain(ids.channelId);
      else expect(visibleChannels).toEqual([]);
      if (webhooks.status !== 200) expect(definition.text).not.toContain(user.platformId);
    }
  });

  test('the walk covered every portal route', () => {
    // Runs last in this file: the steps above recorded what they walked.
    expect(portalRoutes().filter((route) => !walked.has(route))).toEqual([]);
  });
});
