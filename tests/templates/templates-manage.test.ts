import type { TemplateManageParams } from '@switchboard/contract';
import type { Template, TemplateDeletion } from '@switchboard/contract';
import { describe, expect, vi } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { test } from '../helpers/test.js';

// Reviews come back quickly, so a test waits for the outcome rather than the default two seconds.
test.override('serverEnv', { SANDBOX_TEMPLATE_REVIEW_MS: '50' });

/**
 * Waits for the sandbox's review of a template to store `status` (a machine under load takes its time); read from
 * the database, so waiting spends none of the key's read budget.
 */
const reviewed = (databaseUrl: string, id: string, status = 'approved') =>
  vi.waitFor(
    async () => {
      const [row] = await sql<{ status: string }>(databaseUrl, 'select status from templates where id = $1', [id]);
      expect(row?.status).toBe(status);
    },
    { timeout: 15_000, interval: 100 },
  );

type CreateParams = Extract<TemplateManageParams, { action: 'create' }>;
const draft = (overrides: Partial<CreateParams> = {}): CreateParams => ({
  action: 'create',
  name: 'order_shipped',
  language: 'en_US',
  category: 'UTILITY',
  body: { text: 'Hi {{1}}, order {{2}} has shipped.', examples: ['Ada', 'A-1001'] },
  header: { format: 'text', text: 'Order {{1}}', example: 'A-1001' },
  footer: 'Acme Support',
  buttons: [
    { type: 'url', text: 'Track', url: 'https://acme.test/t/{{1}}', example: 'https://acme.test/t/A-1001' },
    { type: 'quick_reply', text: 'Stop' },
  ],
  ...overrides,
});

describe('workspace chat/templates/manage on a sandbox channel', () => {
  test('create submits the template, which the sandbox approves after its review', async ({ server, acme }) => {
    const client = server.client(acme.memberKey).workspace.chat.templates;
    const created = await client.manage(draft());
    expect(created).toMatchObject({ success: true, message: 'Template submitted for review' });
    expect(created.data).toEqual({
      id: expect.any(String),
      name: 'order_shipped',
      category: 'UTILITY',
      language: 'en_US',
      status: 'pending',
      body: 'Hi {{1}}, order {{2}} has shipped.',
      variableCount: 2,
      header: { format: 'text', text: 'Order {{1}}' },
      footer: 'Acme Support',
      buttons: [
        { type: 'url', text: 'Track', url: 'https://acme.test/t/{{1}}' },
        { type: 'quick_reply', text: 'Stop' },
      ],
      rejectedReason: null,
      quality: 'unknown',
    });
    expect((await client.list({ status: 'all' })).data.map((t) => t.name)).toContain('order_shipped');
    await reviewed(server.databaseUrl, (created.data as Template).id);
    expect((await client.list()).data.find((t) => t.name === 'order_shipped')?.status).toBe('approved');
  });

  test('a name starting with reject_ is rejected with a reason', async ({ server, acme }) => {
    const client = server.client(acme.memberKey).workspace.chat.templates;
    const created = await client.manage(draft({ name: 'reject_me', header: undefined, buttons: undefined }));
    await reviewed(server.databaseUrl, (created.data as Template).id, 'rejected');
    const rejected = await client.list({ status: 'rejected' });
    expect(rejected.data.find((t) => t.name === 'reject_me')).toMatchObject({
      status: 'rejected',
      rejectedReason: 'INVALID_FORMAT',
    });
  });

  test.for([
    ['name', { name: 'Order Shipped' }, 'lowercase letters'],
    ['body.text', { body: { text: 'x'.repeat(1025), examples: [] } }, 'at most 1024'],
    ['body.text', { body: { text: 'Hi {{2}} and {{1}}.', examples: ['a', 'b'] } }, 'in order'],
    ['body.text', { body: { text: '{{1}} is here.', examples: ['Ada'] } }, 'start or end'],
    ['body.examples', { body: { text: 'Hi {{1}}, order {{2}}.', examples: ['Ada'] } }, 'must list 2 sample'],
    ['header.text', { header: { format: 'text', text: 'x'.repeat(61) } }, 'at most 60'],
    ['header.text', { header: { format: 'text', text: '{{1}} {{2}}', example: 'a' } }, 'at most one variable'],
    ['header.example', { header: { format: 'text', text: 'Order {{1}}' } }, 'is required'],
    ['header.mediaUrl', { header: { format: 'image', mediaUrl: 'http://acme.test/a.png' } }, 'https'],
    ['footer', { footer: 'Hi {{1}}' }, 'must not hold variables'],
    ['footer', { footer: 'x'.repeat(61) }, 'at most 60'],
    ['buttons.0.text', { buttons: [{ type: 'quick_reply', text: 'x'.repeat(26) }] }, 'at most 25'],
    [
      'buttons',
      { buttons: Array.from({ length: 11 }, (_, i) => ({ type: 'quick_reply', text: `Reply ${i}` })) },
      'at most 10',
    ],
    [
      'buttons',
      { buttons: ['1', '2', '3'].map((n) => ({ type: 'url', text: `Link ${n}`, url: `https://acme.test/${n}` })) },
      'at most 2 url',
    ],
    [
      'buttons',
      {
        buttons: [
          { type: 'quick_reply', text: 'Yes' },
          { type: 'phone_number', text: 'Call', phoneNumber: '+15550100000' },
          { type: 'quick_reply', text: 'No' },
        ],
      },
      'grouped together',
    ],
    [
      'buttons.0.url',
      { buttons: [{ type: 'url', text: 'Track', url: 'https://acme.test/{{1}}/x', example: 'https://acme.test/1/x' }] },
      'only at its end',
    ],
    ['buttons.0.example', { buttons: [{ type: 'url', text: 'Track', url: 'https://acme.test/{{1}}' }] }, 'required'],
  ] as const)('refuses %s (%s) before asking the provider', async ([field, overrides, why], { server, acme }) => {
    const params = draft({ name: 'rules_check', ...(overrides as Partial<CreateParams>) });
    await expectInvalid(server.client(acme.memberKey).workspace.chat.templates.manage(params), field, why);
    const [row] = await sql<{ n: number }>(
      server.databaseUrl,
      `select count(*)::int as n from templates where name = 'rules_check'`,
    );
    expect(row!.n).toBe(0);
  });

  test('the same name and language again is template_exists', async ({ server, acme }) => {
    const client = server.client(acme.memberKey).workspace.chat.templates;
    await expectError(
      client.manage(draft({ name: 'order_update', body: { text: 'Hi {{1}}.', examples: ['Ada'] } })),
      400,
      'template_exists',
      /"order_update" exists in en_US/,
    );
  });

  test('update: only approved, rejected or paused, an approved one once a day', async ({ server, acme }) => {
    const client = server.client(acme.memberKey).workspace.chat.templates;
    const [inAppeal] = await sql<{ id: string }>(
      server.databaseUrl,
      `insert into templates (channel_id, name, category, language, status, body) values
        ($1, 'appealed', 'UTILITY', 'en_US', 'in_appeal', 'Hi') returning id`,
      [acme.mainChannelId],
    );
    await expectError(
      client.manage({ action: 'update', templateId: inAppeal!.id, footer: 'New footer' }),
      400,
      'template_not_editable',
      /"appealed" is in_appeal/,
    );
    const created = await client.manage(draft({ name: 'edit_me' }));
    const templateId = (created.data as Template).id;
    await reviewed(server.databaseUrl, templateId);
    const edited = await client.manage({
      action: 'update',
      templateId,
      footer: null,
      buttons: [],
      body: { text: 'Hello {{1}}, your order shipped.', examples: ['Ada'] },
    });
    expect(edited.data).toMatchObject({
      status: 'pending',
      name: 'edit_me',
      language: 'en_US',
      body: 'Hello {{1}}, your order shipped.',
      variableCount: 1,
      header: { format: 'text', text: 'Order {{1}}' },
      footer: null,
      buttons: [],
    });
    await reviewed(server.databaseUrl, templateId);
    await expectError(
      client.manage({ action: 'update', templateId, footer: 'Again' }),
      400,
      'template_edit_limit',
      /edited again at \d{4}-\d\d-\d\dT/,
    );
  });

  test('delete: refused while a scheduled broadcast uses it, then every language by name', async ({ server, acme }) => {
    const api = server.client(acme.memberKey).workspace;
    const created = await api.chat.templates.manage(draft({ name: 'seasonal', header: undefined, buttons: undefined }));
    await reviewed(server.databaseUrl, (created.data as Template).id);
    const broadcast = await api.broadcasts.manage({
      action: 'create',
      name: 'Seasonal',
      templateName: 'seasonal',
      variables: ['{{contact.name}}', 'A-1'],
      audience: { all: true },
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await expectError(
      api.chat.templates.manage({ action: 'delete', name: 'seasonal' }),
      400,
      'template_in_use',
      /scheduled broadcast "Seasonal"/,
    );
    await api.broadcasts.manage({ action: 'cancel', broadcastId: broadcast.data.id });
    const deleted = await api.chat.templates.manage({ action: 'delete', name: 'seasonal' });
    expect(deleted.data).toEqual({
      name: 'seasonal',
      deleted: [{ id: (created.data as Template).id, language: 'en_US' }],
      reusableAfter: expect.any(String),
    });
    expect(Date.parse((deleted.data as TemplateDeletion).reusableAfter)).toBeGreaterThan(
      Date.now() + 29 * 24 * 3_600_000,
    );
    expect(deleted.message).toMatch(/30 days/);
    expect((await api.chat.templates.list({ status: 'all' })).data.some((t) => t.name === 'seasonal')).toBe(false);
    await expectError(api.chat.templates.manage({ action: 'delete', name: 'seasonal' }), 404, 'template_not_found');
  });

  test('another tenant’s template is not found', async ({ server, acme, globex }) => {
    const [row] = await sql<{ id: string }>(
      server.databaseUrl,
      `select id from templates where channel_id = $1 limit 1`,
      [acme.mainChannelId],
    );
    await expectError(
      server.client(globex.memberKey).workspace.chat.templates.manage({ action: 'delete', templateId: row!.id }),
      404,
      'template_not_found',
    );
  });
});
