import { randomUUID } from 'node:crypto';
import { NotFoundError } from '@switchboard/client';
import { buildOpenApi } from '@switchboard/openapi';
import { describe, expect } from 'vitest';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { operatorKeys } from '../helpers/operators.js';

const ADA = '15550000001';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

const test = base.extend('nextKey', { scope: 'file' }, ({ server, acme }) => operatorKeys(server, acme.platformId));

/** Issue #43: what a new integrator met on the first day, end to end through the SDK. */
describe('workspace/me and `me` as a user id', () => {
  test('me answers the key’s user and its channels', async ({ server, acme }) => {
    const member = (await server.client(acme.memberKey).workspace.me()).data;
    expect(member).toEqual({
      id: acme.memberId,
      name: 'Acme Member',
      email: expect.stringMatching(/^member@/),
      role: 'member',
      platformAccess: false,
      platformId: acme.platformId,
      channels: [expect.objectContaining({ id: acme.mainChannelId })],
    });
    const owner = (await server.client(acme.ownerKey).workspace.me()).data;
    expect(owner).toMatchObject({ id: acme.ownerId, role: 'owner', platformAccess: true });
    expect(owner.channels.map((channel) => channel.id).sort()).toEqual(
      [acme.mainChannelId, acme.secondChannelId].sort(),
    );
  });

  test('chat/conversations/manage assigns to `me`, as the list filters by it; a Date snoozes', async ({
    server,
    acme,
  }) => {
    const chat = server.client(acme.memberKey).workspace.chat;
    const assigned = (await chat.conversations.manage({ phone: ADA, assigneeId: 'me' })).data;
    expect(assigned.assignee).toEqual({ id: acme.memberId, name: 'Acme Member' });
    const mine = await chat.conversations.list({ assigneeId: 'me' });
    expect(mine.data.map((conversation) => conversation.phone)).toEqual([ADA]);
    const until = inDays(1);
    const snoozed = (await chat.conversations.manage({ phone: ADA, status: 'snoozed', snoozedUntil: until })).data;
    expect(snoozed).toMatchObject({ status: 'snoozed', snoozedUntil: until.toISOString() });
    await chat.conversations.manage({ phone: ADA, status: 'open', assigneeId: null });
    const untyped = chat.conversations.manage as (params: object) => Promise<unknown>;
    await expectInvalid(untyped({ phone: ADA, assigneeId: 'you' }), 'assigneeId', 'or `me`');
  });

  test('chat/notes/list filters by authorId, `me` included', async ({ server, acme }) => {
    const [member, owner] = [acme.memberKey, acme.ownerKey].map((key) => server.client(key).workspace.chat);
    const mine = (await member!.notes.manage({ action: 'create', phone: ADA, text: 'Mine' })).data;
    const theirs = (
      await owner!.notes.manage({ channelId: acme.mainChannelId, action: 'create', phone: ADA, text: 'Theirs' })
    ).data;
    expect((await member!.notes.list({ phone: ADA, authorId: 'me' })).data).toEqual([mine]);
    const byId = await member!.notes.list({ phone: ADA, authorId: acme.ownerId });
    expect(byId.data).toEqual([theirs]);
    expect((await member!.notes.list({ phone: ADA })).data.map((note) => note.id)).toEqual([theirs.id, mine.id]);
  });

  test('tickets/manage assigns to `me` and tickets/list filters by it', async ({ server, acme }) => {
    const tickets = server.client(acme.ownerKey).platform.tickets;
    const ticket = { platformId: acme.platformId, ticketId: acme.ids.tickets!.t1!.id };
    const assigned = (await tickets.manage({ ...ticket, assignedToId: 'me' })).data;
    expect(assigned.assignedToId).toBe(acme.ownerId);
    const mine = await tickets.list({ platformId: acme.platformId, assignedToId: 'me' });
    expect(mine.data.map((each) => each.id)).toEqual([ticket.ticketId]);
    await tickets.manage({ ...ticket, assignedToId: null });
    expect((await tickets.list({ platformId: acme.platformId, assignedToId: 'me' })).data).toEqual([]);
  });
});

describe('one item by id: list filters and the SDK’s get(id)', () => {
  test('broadcasts/list by broadcastId is a page of one; broadcasts.get(id) reads it or throws 404', async ({
    server,
    acme,
  }) => {
    const workspace = server.client(acme.memberKey).workspace;
    const create = { action: 'create' as const, templateName: 'order_update', variables: ['{{contact.name}}', 'A-1'] };
    const [first, second] = await Promise.all(
      ['First', 'Second'].map(
        async (name) =>
          (
            await workspace.broadcasts.manage({
              ...create,
              name: `${name} ${randomUUID()}`,
              audience: { all: true },
              scheduledAt: inDays(2),
            })
          ).data,
      ),
    );
    const listed = await workspace.broadcasts.list({ broadcastId: first!.id });
    expect(listed.data).toEqual([first]);
    expect(listed.pagination.total).toBe(1);
    expect((await workspace.broadcasts.get(second!.id)).data).toEqual(second);
    const missing = await expectError(workspace.broadcasts.get(randomUUID()), 404, 'broadcast_not_found');
    expect(missing).toBeInstanceOf(NotFoundError);
    await expectInvalid(workspace.broadcasts.get('not-an-id'), 'broadcastId', 'UUID');
    // Another channel's broadcast is not found through this one.
    const owner = server.client(acme.ownerKey).workspace;
    await expectError(owner.broadcasts.get(first!.id, { channelId: acme.secondChannelId }), 404, 'broadcast_not_found');
  });

  test('automations/list by automationId, and automations.get(id)', async ({ server, acme }) => {
    const workspace = server.client(acme.memberKey).workspace;
    const created = (
      await workspace.automations.manage({
        action: 'create',
        name: `Hello ${randomUUID()}`,
        trigger: { event: 'contact.created' },
        actions: [{ type: 'send_text', text: 'Hi' }],
      })
    ).data;
    expect((await workspace.automations.list({ automationId: created.id })).data).toEqual([created]);
    expect((await workspace.automations.get(created.id)).data).toEqual(created);
    await expectError(workspace.automations.get(randomUUID()), 404, 'automation_not_found');
  });
});

describe('webhooks/manage by action; webhooks/list and webhooks.get by endpointId', () => {
  test('create, update, rotate and delete by action, as every manage endpoint', async ({ server, acme, nextKey }) => {
    const platformId = acme.platformId;
    const hooks = () => server.client(nextKey()).platform.webhooks;
    const url = `https://hooks.example.com/first-day?n=${randomUUID()}`;
    const created = (await hooks().manage({ platformId, action: 'create', url, events: ['ticket.closed'] })).data;
    expect(created).toMatchObject({ url, enabled: true, secret: expect.stringMatching(/^whsec_/) });
    const endpointId = created.id;
    const updated = await hooks().manage({ platformId, action: 'update', endpointId, enabled: false });
    expect(updated).toMatchObject({ message: 'Webhook endpoint updated successfully', data: { enabled: false } });
    expect(updated.data).not.toHaveProperty('secret');
    const rotated = await hooks().manage({ platformId, action: 'rotate', endpointId });
    expect(rotated.message).toBe('Webhook secret rotated successfully');
    expect(rotated.data.secret).not.toBe(created.secret);
    expect(rotated.data.previousSecretExpiresAt).not.toBeNull();

    expect((await hooks().list({ platformId, endpointId })).data).toEqual([
      expect.objectContaining({ id: endpointId, enabled: false }),
    ]);
    expect((await hooks().get(endpointId, { platformId })).data.id).toBe(endpointId);

    const untyped = hooks().manage as (params: object) => Promise<unknown>;
    await expectInvalid(
      untyped({ platformId, action: 'create', endpointId, url, events: ['ticket.closed'] }),
      'endpointId',
    );
    await expectInvalid(untyped({ platformId, action: 'delete', endpointId, url }), 'url', 'action "delete"');
    await expectInvalid(untyped({ platformId, action: 'update', endpointId, delete: true }), 'delete');
    await expectInvalid(untyped({ platformId, action: 'rotate' }), 'endpointId', 'required');

    const deleted = await hooks().manage({ platformId, action: 'delete', endpointId });
    expect(deleted.message).toBe('Webhook endpoint deleted successfully');
    expect((await hooks().list({ platformId, endpointId })).data).toEqual([]);
    await expectError(hooks().get(endpointId, { platformId }), 404, 'webhook_not_found');
  });

  test('the earlier form keeps working: no action, rotateSecret: true, delete: true', async ({
    server,
    acme,
    nextKey,
  }) => {
    const platformId = acme.platformId;
    const hooks = () => server.client(nextKey()).platform.webhooks;
    const url = `https://hooks.example.com/first-day?n=${randomUUID()}`;
    const created = (await hooks().manage({ platformId, url, events: ['ticket.closed'] })).data;
    const rotated = await hooks().manage({ platformId, endpointId: created.id, rotateSecret: true });
    expect(rotated.data.secret).toMatch(/^whsec_/);
    const deleted = await hooks().manage({ platformId, endpointId: created.id, delete: true });
    expect(deleted.message).toBe('Webhook endpoint deleted successfully');
  });

  test('the OpenAPI marks the earlier forms and flags deprecated and offers `action`', () => {
    type Form = { properties: { action?: { enum: string[] } }; required: string[]; deprecated?: boolean };
    const operation = buildOpenApi().paths['/api/platform/v1/webhooks/manage']!.post!;
    const body = JSON.stringify(operation.requestBody);
    const property = (name: string) => body.match(new RegExp(`"${name}":\\{[^}]*\\}`))?.[0] ?? '';
    expect(property('rotateSecret')).toContain('"deprecated":true');
    expect(property('delete')).toContain('"deprecated":true');
    const forms = (operation.requestBody as { content: { 'application/json': { schema: { oneOf: Form[] } } } }).content[
      'application/json'
    ].schema.oneOf;
    expect(forms.flatMap((form) => form.properties.action?.enum ?? [])).toEqual([
      'create',
      'update',
      'delete',
      'rotate',
      'redeliver',
    ]);
    // The earlier forms: deprecated, told apart from the current ones by having no `action`.
    expect(forms.filter((form) => form.deprecated).map((form) => form.required)).toEqual([
      ['url', 'events', 'platformId'],
      ['endpointId', 'platformId'],
      ['redeliver', 'platformId'],
    ]);
  });
});
