import type { Template } from '@switchboard/contract';
import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { test as base } from '../helpers/test.js';
import {
  META_TEMPLATES,
  SECRETS_KEY,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
} from './whatsapp-fixtures.js';

const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: META_TEMPLATES() },
});
afterAll(() => graph.close());

const TEMPLATES_PATH = `/v23.0/${account.wabaId}/message_templates`;

const test = base.extend('wa', { scope: 'file' }, async ({ server }) =>
  whatsAppTenantIds(await server.seed(whatsAppTenantSeed(account))),
);
test.override('serverEnv', { SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url, TEMPLATE_SYNC_MINUTES: '0' });

describe('chat/templates/manage on a WhatsApp Cloud API channel', () => {
  test('create reaches Meta’s message_templates in Meta’s shape and stores Meta’s id and status', async ({
    server,
    wa,
  }) => {
    const templates = server.client(wa.ownerKey).workspace.chat.templates;
    const created = await templates.manage({
      channelId: wa.waChannelId,
      action: 'create',
      name: 'order_shipped',
      language: 'en_US',
      category: 'UTILITY',
      header: { format: 'text', text: 'Order {{1}}', example: 'A-1001' },
      body: { text: 'Hi {{1}}, order {{2}} has shipped.', examples: ['Ada', 'A-1001'] },
      footer: 'Acme',
      buttons: [
        { type: 'url', text: 'Track', url: 'https://acme.test/t/{{1}}', example: 'https://acme.test/t/A-1001' },
        { type: 'phone_number', text: 'Call us', phoneNumber: '+15550100000' },
        { type: 'copy_code', example: 'SAVE10' },
        { type: 'quick_reply', text: 'Stop' },
      ],
    });
    expect(created.data).toMatchObject({ name: 'order_shipped', status: 'pending', quality: 'unknown' });
    const request = graph.requests.findLast((r) => r.method === 'POST' && r.path === TEMPLATES_PATH);
    expect(request?.authorization).toBe(`Bearer ${account.accessToken}`);
    expect(request?.body).toEqual({
      name: 'order_shipped',
      language: 'en_US',
      category: 'UTILITY',
      parameter_format: 'POSITIONAL',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-1001'] } },
        {
          type: 'BODY',
          text: 'Hi {{1}}, order {{2}} has shipped.',
          example: { body_text: [['Ada', 'A-1001']] },
        },
        { type: 'FOOTER', text: 'Acme' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Track', url: 'https://acme.test/t/{{1}}', example: ['https://acme.test/t/A-1001'] },
            { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100000' },
            { type: 'COPY_CODE', example: 'SAVE10' },
            { type: 'QUICK_REPLY', text: 'Stop' },
          ],
        },
      ],
    });
    const [row] = await sql<{ provider_template_id: string }>(
      server.databaseUrl,
      'select provider_template_id from templates where id = $1',
      [(created.data as Template).id],
    );
    expect(row!.provider_template_id).toMatch(/^\d+$/);
  });

  test('Meta’s refusal is provider_rejected with Meta’s message, and nothing is stored', async ({ server, wa }) => {
    const templates = server.client(wa.ownerKey).workspace.chat.templates;
    // A template Meta has that the channel has not synced yet: the local check passes, Meta refuses.
    graph.templates[account.wabaId]!.push({
      name: 'meta_only',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      body: 'Hi',
    });
    await expectError(
      templates.manage({
        channelId: wa.waChannelId,
        action: 'create',
        name: 'meta_only',
        language: 'en_US',
        category: 'UTILITY',
        body: { text: 'Hello there.' },
      }),
      400,
      'provider_rejected',
      /Content in this language already exists for meta_only/,
    );
    const [row] = await sql<{ n: number }>(
      server.databaseUrl,
      `select count(*)::int as n from templates where name = 'meta_only'`,
    );
    expect(row!.n).toBe(0);
  });

  test('a media header needs the channel’s app id: 400 naming header, before Meta is asked', async ({ server, wa }) => {
    const before = graph.requests.length;
    await expectInvalid(
      server.client(wa.ownerKey).workspace.chat.templates.manage({
        channelId: wa.waChannelId,
        action: 'create',
        name: 'with_image',
        language: 'en_US',
        category: 'MARKETING',
        header: { format: 'image', mediaUrl: 'https://acme.test/banner.png' },
        body: { text: 'Our spring sale is on.' },
      }),
      'header',
      '--app-id',
    );
    expect(graph.requests.slice(before).some((r) => r.path === TEMPLATES_PATH && r.method === 'POST')).toBe(false);
  });

  test('update posts the merged components to the template’s id; delete names it by name and hsm_id', async ({
    server,
    wa,
  }) => {
    const templates = server.client(wa.ownerKey).workspace.chat.templates;
    const listed = await templates.list({ channelId: wa.waChannelId, status: 'all' });
    const rejected = listed.data.find((t) => t.name === 'rejected_one')!;
    const [row] = await sql<{ provider_template_id: string }>(
      server.databaseUrl,
      'select provider_template_id from templates where id = $1',
      [rejected.id],
    );
    const metaId = row!.provider_template_id;
    const edited = await templates.manage({
      channelId: wa.waChannelId,
      action: 'update',
      templateId: rejected.id,
      body: { text: 'No {{1}} today.', examples: ['parcel'] },
    });
    expect(edited.data).toMatchObject({ status: 'pending', body: 'No {{1}} today.', footer: 'Stand-in' });
    const edit = graph.requests.findLast((r) => r.method === 'POST' && r.path === `/v23.0/${metaId}`);
    expect(edit?.body).toEqual({
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Update' },
        { type: 'BODY', text: 'No {{1}} today.', example: { body_text: [['parcel']] } },
        { type: 'FOOTER', text: 'Stand-in' },
      ],
    });

    const deleted = await templates.manage({ channelId: wa.waChannelId, action: 'delete', templateId: rejected.id });
    expect(deleted.data).toMatchObject({ name: 'rejected_one', deleted: [{ id: rejected.id, language: 'en_US' }] });
    const removal = graph.requests.findLast((r) => r.method === 'DELETE');
    expect(removal).toMatchObject({ path: TEMPLATES_PATH, query: { name: 'rejected_one', hsm_id: metaId } });
    await templates.manage({ channelId: wa.waChannelId, action: 'delete', name: 'order_update' });
    expect(graph.requests.findLast((r) => r.method === 'DELETE')?.query).toEqual({ name: 'order_update' });
    const after = await templates.list({ channelId: wa.waChannelId, status: 'all' });
    expect(after.data.filter((t) => ['order_update', 'rejected_one'].includes(t.name))).toEqual([]);
  });
});
