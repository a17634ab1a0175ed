import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { test as base } from '../helpers/test.js';
import { postSigned } from './inbound-fixture.js';
import {
  META_TEMPLATES,
  SECRETS_KEY,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
} from '../whatsapp/whatsapp-fixtures.js';

const account = { ...whatsAppAccount(), qualityRating: 'YELLOW' };
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: META_TEMPLATES() },
});
afterAll(() => graph.close());

const test = base.extend('wa', { scope: 'file' }, async ({ server }) =>
  whatsAppTenantIds(await server.seed(whatsAppTenantSeed(account))),
);
test.override('serverEnv', { SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url, TEMPLATE_SYNC_MINUTES: '0' });

/** A signed POST of one WABA change, as Meta sends its account webhooks. */
const postChange = (baseUrl: string, channelId: string, field: string, value: object) =>
  postSigned(
    baseUrl,
    { channelId, ...account },
    { object: 'whatsapp_business_account', entry: [{ id: account.wabaId, changes: [{ field, value }] }] },
  );

interface EventRow {
  type: string;
  payload: { data: Record<string, unknown> };
}
/** The events recorded for the live stream (and webhooks) of one type, oldest first. */
const events = (databaseUrl: string, type: string) =>
  sql<EventRow>(databaseUrl, 'select type, payload from workspace_events where type = $1 order by created_at, id', [
    type,
  ]);

const templateRef = { message_template_name: 'order_update', message_template_language: 'en_US' };

describe('Meta’s template and number webhooks', () => {
  test('message_template_status_update pauses a template and emits template.updated with the change', async ({
    server,
    wa,
  }) => {
    const reply = await postChange(server.baseUrl, wa.waChannelId, 'message_template_status_update', {
      event: 'PAUSED',
      message_template_id: 1000,
      ...templateRef,
      reason: 'Paused for low quality',
    });
    expect(reply.status).toBe(200);
    await expect
      .poll(async () => (await events(server.databaseUrl, 'template.updated')).length, { timeout: 20_000 })
      .toBe(1);
    const [event] = await events(server.databaseUrl, 'template.updated');
    expect(event!.payload.data).toMatchObject({
      channelId: wa.waChannelId,
      template: { name: 'order_update', language: 'en_US', status: 'paused' },
      changes: { status: { previous: 'approved', current: 'paused' } },
      reason: 'Paused for low quality',
    });
    const paused = await server
      .client(wa.ownerKey)
      .workspace.chat.templates.list({ channelId: wa.waChannelId, status: 'paused' });
    expect(paused.data.map((t) => `${t.name}/${t.language}`)).toContain('order_update/en_US');
  });

  test('quality and category updates change the template; a repeat emits nothing more', async ({ server, wa }) => {
    const before = (await events(server.databaseUrl, 'template.updated')).length;
    const quality = { previous_quality_score: 'GREEN', new_quality_score: 'RED', ...templateRef };
    await postChange(server.baseUrl, wa.waChannelId, 'message_template_quality_update', quality);
    await postChange(server.baseUrl, wa.waChannelId, 'template_category_update', {
      ...templateRef,
      previous_category: 'UTILITY',
      new_category: 'MARKETING',
    });
    // The same quality again (Meta redelivers), with another byte so it is stored as a new delivery.
    await postChange(server.baseUrl, wa.waChannelId, 'message_template_quality_update', { ...quality, extra: 1 });
    await expect
      .poll(
        async () => {
          const [row] = await sql<{ quality: string; category: string }>(
            server.databaseUrl,
            `select quality, category from templates where channel_id = $1 and name = 'order_update' and
              language = 'en_US'`,
            [wa.waChannelId],
          );
          return row;
        },
        { timeout: 20_000 },
      )
      .toEqual({ quality: 'red', category: 'MARKETING' });
    await server.untilIdle();
    const changes = (await events(server.databaseUrl, 'template.updated')).slice(before).map((e) => e.payload.data);
    expect(changes.map((data) => data.changes)).toEqual([
      { quality: { previous: 'unknown', current: 'red' } },
      { category: { previous: 'UTILITY', current: 'MARKETING' } },
    ]);
  });

  test('phone_number_quality_update stores the tier and Graph’s rating, in channels/list and channel.updated', async ({
    server,
    wa,
  }) => {
    await postChange(server.baseUrl, wa.waChannelId, 'phone_number_quality_update', {
      display_phone_number: account.displayPhoneNumber,
      event: 'DOWNGRADE',
      current_limit: 'TIER_1K',
    });
    await expect
      .poll(async () => (await events(server.databaseUrl, 'channel.updated')).length, { timeout: 20_000 })
      .toBe(1);
    const [event] = await events(server.databaseUrl, 'channel.updated');
    expect(event!.payload.data).toMatchObject({
      channelId: wa.waChannelId,
      channel: { id: wa.waChannelId, quality: 'yellow', messagingLimit: 'TIER_1K' },
      changes: {
        quality: { previous: 'unknown', current: 'yellow' },
        messagingLimit: { previous: null, current: 'TIER_1K' },
      },
    });
    const read = graph.requests.findLast((r) => r.path === `/v23.0/${account.phoneNumberId}`);
    expect(read?.query.fields).toBe('quality_rating,messaging_limit_tier');
    const channels = await server.client(wa.ownerKey).workspace.channels.list();
    expect(channels.data.find((c) => c.id === wa.waChannelId)).toMatchObject({
      quality: 'yellow',
      messagingLimit: 'TIER_1K',
    });
    expect(channels.data.find((c) => c.id === wa.sandboxChannelId)).toMatchObject({
      quality: 'unknown',
      messagingLimit: null,
    });
  });
});
