import { demoSeed } from '@switchboard/server';
import { EXAMPLE_IDS } from '@switchboard/contract';
import { describe, expect } from 'vitest';
import { queryOf } from '../helpers/query.js';
import { test } from '../helpers/test.js';
import { demoVariables } from './demo-ids.js';
import { contractRoutes } from './routes.js';

// Every example is sent as GET and POST by one user: more writes than a minute's api_write budget, which is not what
// these examples are about.
test.override('serverEnv', { RATE_LIMIT_API_WRITE: '1000', RATE_LIMIT_API_ADMIN_WRITE: '1000' });

const cases = contractRoutes().flatMap((route) =>
  Object.entries(route.metadata.failureExamples).map(([name, failure]) => ({
    name: `${route.method} ${route.path} ${name}`,
    route,
    failure,
  })),
);

/**
 * The failures the OpenAPI shows as examples (channelId left out, a template's variables left out) are the
 * server's own replies, word for word: each is sent as the request it names, or as its operation's example without
 * the parameter the message names, to the demo data (whose owner's key is authorized for two channels).
 */
// One key sends every write's failures within a minute, near api_write's default budget (not what this tests).
test.override('serverEnv', { RATE_LIMIT_API_WRITE: '1000' });

describe('documented failure examples', () => {
  let ids: Record<string, string>;
  let apiKey: string;

  test.beforeAll(async ({ server }) => {
    const {
      apiKey: ownerKey,
      platformId,
      channelId,
      userId,
      addonId,
      ticketId,
      automationId,
      broadcastId,
    } = demoVariables(server.baseUrl, await server.seed(demoSeed));
    ids = { platformId, channelId, userId, addonId, ticketId, automationId, broadcastId };
    apiKey = ownerKey;
  });

  test('cover every channel-scoped operation and templates/send', () => {
    expect(cases.filter((c) => c.name.endsWith('channelIdRequired')).length).toBeGreaterThanOrEqual(22);
    expect(cases.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'POST /api/workspace/v1/chat/templates/send variablesRequired',
        'GET /api/workspace/v1/chat/templates/send variablesRequired',
      ]),
    );
  });

  test.for(cases)('$name is what the server answers', async ({ route, failure }, { server }) => {
    // A failure of stored data names its own request; others are the example without the field the message names.
    const omitted = failure.request ? undefined : failure.message.split(':')[0]!;
    // The demo's own ids in place of the definition's sample ids, as a user trying the example would send.
    let text = JSON.stringify(failure.request ?? route.metadata.example);
    for (const [name, id] of Object.entries(ids))
      text = text.replaceAll(EXAMPLE_IDS[name as keyof typeof EXAMPLE_IDS], id);
    const params = Object.fromEntries(
      Object.entries(JSON.parse(text) as Record<string, unknown>).filter(([key]) => key !== omitted),
    );
    const reply =
      route.method === 'POST'
        ? await server.http.post(route.path, params, { headers: { 'X-API-Key': apiKey } })
        : await server.http.get(`${route.path}?${queryOf(params)}`, { headers: { 'X-API-Key': apiKey } });
    expect([reply.status, reply.data]).toEqual([
      failure.status,
      { success: false, error: failure.error, message: failure.message },
    ]);
  });
});
