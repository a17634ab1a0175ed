import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { expectError, expectForbidden, expectInvalid } from '../helpers/expect.js';
import { test } from '../helpers/test.js';
import { automation } from './automations-fixture.js';

const labelId = async (
  client: ReturnType<import('../helpers/server.js').TestServer['client']>,
  name: string,
  channelId?: string,
) => (await client.workspace.labels.list(channelId ? { channelId } : {})).data.find((l) => l.name === name)!.id;

describe('workspace automations/manage', () => {
  test('creates, lists, updates and deletes an automation', async ({ server, acme }) => {
    const client = server.client(acme.memberKey);
    const vip = await labelId(client, 'vip');
    const created = await client.workspace.automations.manage({
      ...automation(
        { event: 'contact.labeled', labelId: vip },
        [
          {
            type: 'send_template',
            templateName: 'order_update',
            variables: ['{{contact.name}}', '{{customField.Plan}}'],
          },
          { type: 'set_custom_field', name: 'Age', value: 40 },
        ],
        [{ field: 'customField', name: 'Plan', operator: 'equals', value: 'pro' }],
      ),
      name: 'VIP welcome',
    });
    expect(created).toEqual({
      success: true,
      message: 'Automation created successfully',
      data: {
        id: expect.any(String),
        name: 'VIP welcome',
        status: 'active',
        executionCount: 0,
        trigger: { event: 'contact.labeled', labelId: vip },
        conditions: [{ field: 'customField', name: 'Plan', operator: 'equals', value: 'pro' }],
        actions: [
          {
            type: 'send_template',
            templateName: 'order_update',
            variables: ['{{contact.name}}', '{{customField.Plan}}'],
          },
          { type: 'set_custom_field', name: 'Age', value: 40 },
        ],
        lastRunAt: null,
        createdAt: expect.stringMatching(/Z$/),
      },
    });
    const id = created.data.id;
    const listed = await client.workspace.automations.list({ status: 'active' });
    expect(listed.data[0]).toEqual(created.data);

    const updated = await client.workspace.automations.manage({ action: 'update', automationId: id, status: 'paused' });
    expect(updated.message).toBe('Automation updated successfully');
    expect(updated.data).toEqual({ ...created.data, status: 'paused' });
    expect((await client.workspace.automations.list({ status: 'paused' })).data.map((a) => a.id)).toContain(id);

    const deleted = await client.workspace.automations.manage({ action: 'delete', automationId: id });
    expect(deleted).toEqual({ success: true, message: 'Automation deleted successfully', data: updated.data });
    expect((await client.workspace.automations.list()).data.map((a) => a.id)).not.toContain(id);
    await expectError(
      client.workspace.automations.manage({ action: 'delete', automationId: id }),
      404,
      'automation_not_found',
    );
  });

  test('refuses what the channel does not have, naming the field', async ({ server, acme }) => {
    const client = server.client(acme.ownerKey);
    const vip = await labelId(client, 'vip', acme.mainChannelId);
    const lead = await labelId(client, 'lead', acme.secondChannelId);
    const create = (params: ReturnType<typeof automation>) =>
      client.workspace.automations.manage({ channelId: acme.mainChannelId, ...params });
    const message = { event: 'message.received' as const };

    await expectError(
      create(
        automation(message, [
          { type: 'add_label', labelId: vip },
          { type: 'add_label', labelId: lead },
        ]),
      ),
      400,
      'invalid_request',
      'actions.1.labelId: label not found in this channel',
    );
    await expectInvalid(
      create(automation(message, [{ type: 'remove_label', labelId: randomUUID() }])),
      'actions.0.labelId',
    );
    await expectInvalid(
      create(automation({ event: 'contact.labeled', labelId: lead }, [{ type: 'add_label', labelId: vip }])),
      'trigger.labelId',
      'label not found',
    );
    await expectInvalid(
      create(
        automation(
          { event: 'contact.created' },
          [{ type: 'add_label', labelId: vip }],
          [{ field: 'text', operator: 'contains', value: 'hi' }],
        ),
      ),
      'conditions.0.field',
      'message.received',
    );
    await expectInvalid(
      create(automation(message, [{ type: 'send_template', templateName: 'promo', variables: ['x'] }])),
      'actions.0.templateName',
      'no approved template',
    );
    await expectInvalid(
      create(automation(message, [{ type: 'send_template', templateName: 'order_update', variables: ['x'] }])),
      'actions.0.variables',
      'expects 2',
    );
    await expectInvalid(
      create(automation(message, [{ type: 'send_text', text: 'Hi {{contact.email}}' }])),
      'actions.0.text',
      'unknown placeholder',
    );
    await expectInvalid(
      create(automation(message, [{ type: 'send_text', text: 'Hi {{customField.Nope}}' }])),
      'actions.0.text',
      'no such custom field',
    );
    await expectInvalid(
      create(automation(message, [{ type: 'set_custom_field', name: 'Age', value: 'old' }])),
      'actions.0.value',
      'must be a number',
    );
    await expectInvalid(
      create(automation(message, [{ type: 'set_custom_field', name: 'Nope', value: 1 }])),
      'actions.0.name',
    );
    await expectInvalid(
      create(
        automation(message, [{ type: 'add_label', labelId: vip }], [{ field: 'label', operator: 'has', value: lead }]),
      ),
      'conditions.0.value',
      'label not found',
    );
    const buttons = (body: string, titles = ['Track order', 'Talk to us']) => ({
      type: 'send_interactive' as const,
      interactive: {
        kind: 'buttons' as const,
        body,
        buttons: titles.map((title, i) => ({ id: `b${i}`, title })),
      },
    });
    await expectInvalid(
      create(automation(message, [buttons('Hi', ['Track order', 'x'.repeat(21)])])),
      'actions.0.interactive.buttons.1.title',
      'at most 20 characters',
    );
    await expectInvalid(
      create(automation(message, [buttons('Hi {{order}}')])),
      'actions.0.interactive.body',
      'unknown placeholder {{order}}',
    );
    await expectInvalid(
      create(automation(message, [buttons('Hi {{customField.Nope}}')])),
      'actions.0.interactive.body',
      'no such custom field',
    );
    await expectInvalid(
      create(automation({ event: 'contact.created' }, [{ type: 'send_reaction', emoji: '👍' }])),
      'actions.0.type',
      'message.received',
    );
    await expectInvalid(
      create(
        automation(
          { event: 'contact.created' },
          [{ type: 'add_label', labelId: vip }],
          [{ field: 'reply', operator: 'equals', value: 'b0' }],
        ),
      ),
      'conditions.0.field',
      'message.received',
    );
    await expectInvalid(create(automation(message, [{ type: 'send_reaction', emoji: 'ok' }])), 'actions.0.emoji');
    await expectInvalid(create({ ...automation(message, []), actions: [] }), 'actions', 'at least 1');
    await expectInvalid(
      // @ts-expect-error: the SDK's types refuse it too; the server's 400 is what is tested
      client.workspace.automations.manage({ channelId: acme.mainChannelId, action: 'create' }),
      'name',
    );

    const first = await create({ ...automation(message, [{ type: 'add_label', labelId: vip }]), name: 'Twice' });
    await expectInvalid(
      create({ ...automation(message, [{ type: 'add_label', labelId: vip }]), name: 'Twice' }),
      'name',
      'exists',
    );
    await expectInvalid(
      client.workspace.automations.manage({
        channelId: acme.mainChannelId,
        action: 'update',
        automationId: first.data.id,
        trigger: { event: 'contact.created' },
        conditions: [{ field: 'text', operator: 'equals', value: 'x' }],
      }),
      'conditions.0.field',
    );
  });

  test('another tenant’s automation is 403, another channel’s 404, an unknown one 404', async ({
    server,
    acme,
    globex,
  }) => {
    const globexOwn = await server.client(globex.memberKey).workspace.automations.list();
    const theirs = globexOwn.data[0]!.id;
    const client = server.client(acme.ownerKey);
    await expectForbidden(
      client.workspace.automations.manage({ channelId: acme.mainChannelId, action: 'delete', automationId: theirs }),
    );
    const second = (await client.workspace.automations.list({ channelId: acme.secondChannelId })).data[0]!.id;
    await expectError(
      client.workspace.automations.manage({ channelId: acme.mainChannelId, action: 'update', automationId: second }),
      404,
      'automation_not_found',
    );
    await expectError(
      client.workspace.automations.manage({
        channelId: acme.mainChannelId,
        action: 'delete',
        automationId: randomUUID(),
      }),
      404,
      'automation_not_found',
    );
    expect((await server.client(globex.memberKey).workspace.automations.list()).data).toEqual(globexOwn.data);
  });

  test('honours Idempotency-Key: a repeat returns the first reply, creating nothing more', async ({ server, acme }) => {
    const body = automation({ event: 'contact.created' }, [{ type: 'set_custom_field', name: 'Plan', value: 'free' }]);
    const headers = { 'X-API-Key': acme.memberKey, 'Idempotency-Key': randomUUID() };
    const first = await server.http.post('/api/workspace/v1/automations/manage', body, { headers });
    const again = await server.http.post('/api/workspace/v1/automations/manage', body, { headers });
    expect(first.status).toBe(200);
    expect(again.data).toEqual(first.data);
    const named = (await server.client(acme.memberKey).workspace.automations.list()).data.filter(
      (a) => a.name === body.name,
    );
    expect(named).toHaveLength(1);
  });
});
