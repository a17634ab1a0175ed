import { randomUUID } from 'node:crypto';
import type { SwitchboardClient } from '@switchboard/client';
import { describe, expect } from 'vitest';
import { expectError, expectForbiddenForOtherTenant, expectInvalid } from '../helpers/expect.js';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';
import { started as isStarted, untilBroadcast } from './broadcast-waits.js';

const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString();

/** A create that would succeed in Acme's main channel: scheduled, so nothing is sent. */
const createParams = (overrides: Record<string, unknown> = {}) => ({
  action: 'create' as const,
  name: `Broadcast ${randomUUID()}`,
  templateName: 'order_update',
  variables: ['{{contact.name}}', 'A-1'],
  audience: { all: true as const },
  scheduledAt: inDays(1),
  ...overrides,
});

type Create = Parameters<SwitchboardClient['workspace']['broadcasts']['manage']>[0];
const labelId = async (client: SwitchboardClient, name: string) =>
  (await client.workspace.labels.list()).data.find((label) => label.name === name)!.id;

describe('workspace broadcasts/manage', { timeout: 90_000 }, () => {
  test('creates a scheduled broadcast: the reply lists every field, counts zero until it starts', async ({
    server,
    acme,
  }) => {
    const client = server.client(acme.memberKey);
    const params = createParams({ ratePerSecond: 5 });
    const created = await client.workspace.broadcasts.manage(params as Create);
    expect(created).toEqual({
      success: true,
      message: 'Broadcast created successfully',
      data: {
        id: expect.any(String),
        name: params.name,
        status: 'scheduled',
        pausedReason: null,
        templateName: 'order_update',
        audience: { all: true },
        scheduledAt: params.scheduledAt,
        ratePerSecond: 5,
        counts: { recipients: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 },
        createdAt: expect.stringMatching(/Z$/),
        startedAt: null,
        completedAt: null,
      },
    });
    const listed = await client.workspace.broadcasts.list({ status: 'scheduled' });
    expect(listed.data[0]).toEqual(created.data);
    expect(listed.pagination).toMatchObject({ page: 1, limit: 50 });
    const recipients = await client.workspace.broadcasts.recipients({ broadcastId: created.data.id });
    expect(recipients).toEqual({ success: true, data: [], pagination: { page: 1, limit: 50, total: 0, pages: 0 } });
  });

  test('cancels a scheduled broadcast, which never starts; cancelling it again is a 400', async ({ server, acme }) => {
    const client = server.client(acme.memberKey);
    const created = await client.workspace.broadcasts.manage(createParams() as Create);
    const cancelled = await client.workspace.broadcasts.manage({ action: 'cancel', broadcastId: created.data.id });
    expect(cancelled).toEqual({
      success: true,
      message: 'Broadcast cancelled successfully',
      data: { ...created.data, status: 'cancelled', completedAt: expect.stringMatching(/Z$/) },
    });
    await expectInvalid(
      client.workspace.broadcasts.manage({ action: 'cancel', broadcastId: created.data.id }),
      'broadcastId',
      'the broadcast is cancelled',
    );
    const [row] = await sql(server.databaseUrl, `select status, started_at from broadcasts where id = $1`, [
      created.data.id,
    ]);
    expect(row).toEqual({ status: 'cancelled', started_at: null });
  });

  test('refuses every wrong field with a 400 naming its path, storing nothing', async ({ server, acme }) => {
    const client = server.client(acme.ownerKey);
    // Three users' keys in turn: the checks below are more writes than one user's api_write budget.
    const writers = [acme.ownerKey, acme.auditorKey, acme.memberKey].map((key) => server.client(key));
    let turn = 0;
    const create = (overrides: Record<string, unknown>) =>
      writers[turn++ % writers.length]!.workspace.broadcasts.manage({
        channelId: acme.mainChannelId,
        ...createParams(overrides),
      } as Create);
    const lead = (await client.workspace.labels.list({ channelId: acme.secondChannelId })).data[0]!.id;
    const linus = (await client.workspace.contacts.list({ channelId: acme.secondChannelId })).data[0]!.id;
    const before = await sql(server.databaseUrl, `select count(*)::int as n from broadcasts`);

    await expectInvalid(create({ name: '' }), 'name', 'must not be empty');
    await expectInvalid(create({ name: 'x'.repeat(121) }), 'name', 'at most 120');
    // A pending template: Meta has not approved it yet (#41).
    await expectError(create({ templateName: 'promo' }), 400, 'template_not_approved', /"promo" is pending/);
    await expectInvalid(create({ templateName: 'follow_up' }), 'templateName', 'no approved template');
    await expectInvalid(create({ variables: ['only one'] }), 'variables', 'expects 2, got 1');
    await expectInvalid(create({ variables: ['{{contact.email}}', 'x'] }), 'variables.0', 'unknown placeholder');
    await expectInvalid(
      create({ variables: ['{{contact.customFields.Nope}}', 'x'] }),
      'variables.0',
      'no such custom field',
    );
    await expectInvalid(create({ audience: {} }), 'audience', 'exactly one of labelIds, contactIds, all');
    await expectInvalid(
      create({ audience: { all: true, contactIds: [randomUUID()] } }),
      'audience.all',
      'cannot be combined with contactIds',
    );
    await expectInvalid(create({ audience: { all: false } }), 'audience.all');
    await expectInvalid(create({ audience: { labelIds: [lead] } }), 'audience.labelIds.0', 'label not found');
    await expectInvalid(create({ audience: { contactIds: [linus] } }), 'audience.contactIds.0', 'contact not found');
    await expectInvalid(create({ audience: { contactIds: ['nope'] } }), 'audience.contactIds.0', 'must be a UUID');
    await expectInvalid(
      create({ audience: { contactIds: Array.from({ length: 10_001 }, () => randomUUID()) } }),
      'audience.contactIds',
      'at most 10,000',
    );
    await expectInvalid(create({ audience: { all: true, segment: 'x' } }), 'audience.segment', 'unknown parameter');
    await expectInvalid(create({ scheduledAt: inDays(-1) }), 'scheduledAt', 'in the past');
    await expectInvalid(create({ scheduledAt: inDays(31) }), 'scheduledAt', 'at most 30 days');
    await expectInvalid(create({ scheduledAt: 'tomorrow' }), 'scheduledAt', 'ISO 8601');
    await expectInvalid(create({ ratePerSecond: 0 }), 'ratePerSecond', 'at least 1');
    await expectInvalid(create({ ratePerSecond: 1.5 }), 'ratePerSecond', 'integer');
    await expectInvalid(create({ ratePerSecond: 100_000 }), 'ratePerSecond', 'the channel’s rate');
    await expectInvalid(create({ broadcastId: randomUUID() }), 'broadcastId', 'not a parameter of action "create"');
    await expectInvalid(
      client.workspace.broadcasts.manage({ channelId: acme.mainChannelId, action: 'create' } as Create),
      'name',
      'is required',
    );
    await expectInvalid(
      client.workspace.broadcasts.manage({ channelId: acme.mainChannelId, action: 'cancel' } as Create),
      'broadcastId',
      'is required',
    );
    await expectInvalid(
      client.workspace.broadcasts.manage({ channelId: acme.mainChannelId, action: 'delete' } as unknown as Create),
      'action',
    );
    // Several wrong fields: one 400 naming each.
    const several = await expectError(
      create({ name: `Several ${randomUUID()}`, templateName: 'no_such_template', scheduledAt: inDays(40) }),
      400,
      'invalid_request',
    );
    expect(several.message).toMatch(/templateName: .*; scheduledAt: /);

    const first = await create({ name: 'Twice' });
    await expectInvalid(create({ name: 'Twice' }), 'name', 'exists in this channel');
    await client.workspace.broadcasts.manage({
      channelId: acme.mainChannelId,
      action: 'cancel',
      broadcastId: first.data.id,
    });
    const after = await sql(server.databaseUrl, `select count(*)::int as n from broadcasts`);
    expect(after[0]!.n).toBe(before[0]!.n + 1);
  });

  test('GET takes the same parameters as POST, objects as JSON text', async ({ server, acme }) => {
    const params = createParams();
    const query = new URLSearchParams({
      action: 'create',
      name: params.name,
      templateName: params.templateName,
      variables: params.variables[0]!,
      audience: JSON.stringify(params.audience),
      scheduledAt: params.scheduledAt,
    });
    query.append('variables', params.variables[1]!);
    const reply = await server.http.get(`/api/workspace/v1/broadcasts/manage?${query}`, {
      headers: { 'X-API-Key': acme.memberKey },
    });
    expect(reply.status).toBe(200);
    expect(reply.data.data).toMatchObject({ name: params.name, status: 'scheduled', audience: { all: true } });
  });

  test('another tenant’s broadcast is 403, another channel’s 404, an unknown one 404', async ({
    server,
    acme,
    globex,
  }) => {
    const theirs = await server.client(globex.memberKey).workspace.broadcasts.manage(createParams() as Create);
    const owner = server.client(acme.ownerKey);
    const inMain = { channelId: acme.mainChannelId };
    await expectForbiddenForOtherTenant(
      owner.workspace.broadcasts.manage({ ...inMain, action: 'cancel', broadcastId: theirs.data.id }),
    );
    await expectForbiddenForOtherTenant(
      owner.workspace.broadcasts.recipients({ ...inMain, broadcastId: theirs.data.id }),
    );
    await expectForbiddenForOtherTenant(owner.workspace.broadcasts.list({ channelId: globex.mainChannelId }));
    const second = await owner.workspace.broadcasts.manage({
      ...createParams({ templateName: 'follow_up', variables: ['{{contact.name}}'] }),
      channelId: acme.secondChannelId,
    } as Create);
    await expectError(
      owner.workspace.broadcasts.manage({ ...inMain, action: 'cancel', broadcastId: second.data.id }),
      404,
      'broadcast_not_found',
    );
    await expectError(
      owner.workspace.broadcasts.recipients({ ...inMain, broadcastId: randomUUID() }),
      404,
      'broadcast_not_found',
    );
    const listed = await owner.workspace.broadcasts.list(inMain);
    expect(listed.data.map((b) => b.id)).not.toContain(second.data.id);
    expect(listed.data.map((b) => b.id)).not.toContain(theirs.data.id);
    expect((await server.client(globex.memberKey).workspace.broadcasts.list()).data[0]!.status).toBe('scheduled');
  });

  test('lists newest first, by status, paginated', async ({ server, globex }) => {
    const client = server.client(globex.memberKey);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await client.workspace.broadcasts.manage(createParams() as Create)).data.id);
    await client.workspace.broadcasts.manage({ action: 'cancel', broadcastId: ids[1]! });
    const page = await client.workspace.broadcasts.list({ status: 'scheduled', limit: 1, page: 2 });
    expect(page.pagination).toEqual({ page: 2, limit: 1, total: 3, pages: 3 });
    expect(page.data.map((b) => b.id)).toEqual([ids[0]]);
    const cancelled = await client.workspace.broadcasts.list({ status: 'cancelled' });
    expect(cancelled.data.map((b) => b.id)).toEqual([ids[1]]);
  });

  test('a label audience reaches contacts with any of the labels once, skipping the unsubscribed and blocked', async ({
    server,
    acme,
  }) => {
    await server.seed({
      contacts: [
        { channel: acme.mainChannelId, name: 'Unsub', phone: '15550000081', labels: ['vip'], status: 'unsubscribed' },
        { channel: acme.mainChannelId, name: 'Blocked', phone: '15550000082', labels: ['new'], status: 'blocked' },
      ],
    });
    const client = server.client(acme.memberKey);
    const labels = [await labelId(client, 'vip'), await labelId(client, 'new')];
    const created = await client.workspace.broadcasts.manage(
      createParams({ audience: { labelIds: labels }, scheduledAt: undefined }) as Create,
    );
    expect(created.data).toMatchObject({ status: 'preparing', startedAt: null });
    const started = { data: await untilBroadcast(client.workspace.broadcasts, created.data.id, isStarted) };
    expect(started.data.status).toMatch(/sending|completed/);
    expect(started.data.startedAt).toEqual(expect.stringMatching(/Z$/));
    const { counts } = started.data;
    expect(counts.recipients).toBe(4);
    expect(counts.skipped).toBe(2);
    expect(counts.queued + counts.sent + counts.delivered + counts.read + counts.failed + counts.skipped).toBe(4);

    const skipped = await client.workspace.broadcasts.recipients({ broadcastId: started.data.id, status: 'skipped' });
    expect(skipped.data.map(({ phone, reason, msgid }) => ({ phone, reason, msgid }))).toEqual([
      { phone: '15550000081', reason: 'contact_unsubscribed', msgid: null },
      { phone: '15550000082', reason: 'contact_blocked', msgid: null },
    ]);
    const all = await client.workspace.broadcasts.recipients({ broadcastId: started.data.id, limit: 3 });
    expect(all.pagination).toEqual({ page: 1, limit: 3, total: 4, pages: 2 });
    // Grace has both labels: one row for her phone.
    expect(all.data.map((r) => r.phone)).toEqual(['15550000001', '15550000002', '15550000081']);
    expect(all.data[0]!.contactId).toEqual(expect.any(String));
  });

  test('a contactIds audience lists each phone once; `all` reaches every contact of the channel', async ({
    server,
    acme,
  }) => {
    const client = server.client(acme.memberKey);
    const contacts = (await client.workspace.contacts.list({ limit: 200 })).data;
    const ada = contacts.find((c) => c.phone === '15550000001')!.id;
    const startedOf = async (params: Create) => {
      const { data } = await client.workspace.broadcasts.manage(params);
      return untilBroadcast(client.workspace.broadcasts, data.id, isStarted);
    };
    const byIds = await startedOf(
      createParams({ audience: { contactIds: [ada, ada] }, scheduledAt: undefined }) as Create,
    );
    expect(byIds.counts.recipients).toBe(1);
    const everyone = await startedOf(createParams({ scheduledAt: undefined }) as Create);
    expect(everyone.counts.recipients).toBe(contacts.length);
    const phones = await sql(
      server.databaseUrl,
      `select phone from broadcast_recipients where broadcast_id = $1 order by phone`,
      [everyone.id],
    );
    expect(phones.map((row) => row.phone)).toEqual(contacts.map((c) => c.phone).sort());
  });
});
