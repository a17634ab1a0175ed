import {
  AUTOMATION_MAX_DEFINITION_BYTES,
  AUTOMATIONS_PER_CHANNEL,
  WEBHOOK_ENDPOINTS_PER_PLATFORM,
} from '@switchboard/contract';
import { describe, expect } from 'vitest';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { test } from '../helpers/test.js';
import { seedTenantWithWebhooks } from '../webhooks/webhook-tenant.js';

/** Caps that keep one tenant from growing what every event, delivery or list of the others waits on (issue #31). */
test.override('serverEnv', { ALLOW_HTTP_WEBHOOKS: 'true' });

describe('webhook endpoints', () => {
  test('at most 20 per platform and one per URL, each refusal a 400 naming the limit', async ({ server }) => {
    const url = (n: number) => `http://127.0.0.1:9/hooks/${n}`;
    const seeded = Array.from({ length: WEBHOOK_ENDPOINTS_PER_PLATFORM - 1 }, (_, n) => ({
      url: url(n),
      events: ['ticket.closed' as const],
    }));
    const { platformId, ownerKey } = await seedTenantWithWebhooks(server, 'Hooked', seeded);
    const sb = server.client(ownerKey).platform.webhooks;
    const create = (at: string) => sb.manage({ platformId, url: at, events: ['ticket.closed'] });
    await expectError(create(url(0)), 400, 'duplicate_url', /^url: .*already has an endpoint/);
    await create(url(WEBHOOK_ENDPOINTS_PER_PLATFORM));
    expect((await sb.list({ platformId })).data).toHaveLength(WEBHOOK_ENDPOINTS_PER_PLATFORM);
    await expectError(create(url(99)), 400, 'invalid_request', /at most 20 webhook endpoints/);

    const [first, second] = (await sb.list({ platformId })).data;
    await expectError(
      sb.manage({ platformId, endpointId: second!.id, url: first!.url }),
      400,
      'duplicate_url',
      /^url: /,
    );
    // A freed place can be taken again.
    await sb.manage({ platformId, endpointId: second!.id, delete: true });
    await create(url(99));
  });
});

describe('automations', () => {
  const reply = { type: 'send_text' as const, text: 'Thanks!' };
  const rule = (name: string) => ({
    channel: 'main',
    name,
    trigger: { event: 'message.received' as const },
    conditions: [],
    actions: [reply],
  });

  test('at most 100 per channel', async ({ server }) => {
    const file = tenantSeed('Busy');
    file.automations = Array.from({ length: AUTOMATIONS_PER_CHANNEL }, (_, n) => rule(`Rule ${n}`));
    const ids = await server.seed(file);
    const sb = server.client(ids.users!.owner!.apiKey!).workspace.automations;
    const channelId = ids.channels!.main!;
    const create = () =>
      sb.manage({
        channelId,
        action: 'create',
        name: 'One more',
        trigger: { event: 'message.received' },
        actions: [reply],
      });
    await expectError(create(), 400, 'invalid_request', /at most 100 automations/);

    const [newest] = (await sb.list({ channelId, limit: 1 })).data;
    await sb.manage({ channelId, action: 'delete', automationId: newest!.id });
    expect((await create()).data.name).toBe('One more');
  });

  test('a definition of at most 32 KB', async ({ server, acme }) => {
    const sb = server.client(acme.ownerKey).workspace.automations;
    const text = 'x'.repeat(4000);
    const actions = Array.from({ length: 10 }, () => ({ type: 'send_text' as const, text }));
    expect(JSON.stringify(actions).length).toBeGreaterThan(AUTOMATION_MAX_DEFINITION_BYTES);
    const create = (count: number) =>
      sb.manage({
        channelId: acme.mainChannelId,
        action: 'create',
        name: `Long ${count}`,
        trigger: { event: 'message.received' },
        actions: actions.slice(0, count),
      });
    await expectInvalid(create(10), 'actions', /32768 bytes \(32 KB\)/);
    const created = await create(8);
    await expectInvalid(
      sb.manage({ channelId: acme.mainChannelId, action: 'update', automationId: created.data.id, actions }),
      'actions',
      /32 KB/,
    );
  });

  test('automations/list is paginated and keeps total', async ({ server }) => {
    const file = tenantSeed('Lister');
    file.automations = Array.from({ length: 5 }, (_, n) => rule(`Rule ${n}`));
    const ids = await server.seed(file);
    const sb = server.client(ids.users!.owner!.apiKey!).workspace.automations;
    const channelId = ids.channels!.main!;
    const page = await sb.list({ channelId, page: 2, limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.pagination).toEqual({ page: 2, limit: 2, total: 5, pages: 3 });
    expect(page.total).toBe(5);
    expect((await sb.list({ channelId })).pagination).toMatchObject({ page: 1, limit: 50 });
    await expectInvalid(sb.list({ channelId, limit: 201 }), 'limit', 'at most 200');
  });
});
