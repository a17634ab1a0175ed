import { afterAll, describe, expect } from 'vitest';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { startGraphStandIn, type StandInTemplate } from '../helpers/graph-stand-in.js';
import { test as base } from '../helpers/test.js';
import { SECRETS_KEY, template, whatsAppAccount, whatsAppTenantIds, whatsAppTenantSeed } from './whatsapp-fixtures.js';

/** Meta's listing of a marketing template with an image header, a URL button with a variable and a quick reply. */
const SPRING_SALE: StandInTemplate = {
  name: 'spring_sale',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  body: 'Hi {{1}}, our spring sale is on.',
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2U='] } },
    { type: 'BODY', text: 'Hi {{1}}, our spring sale is on.', example: { body_text: [['Ada']] } },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Shop', url: 'https://acme.test/s/{{1}}', example: ['https://acme.test/s/ada'] },
        { type: 'QUICK_REPLY', text: 'Stop' },
      ],
    },
  ],
};

const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: [SPRING_SALE, template('order_update'), template('promo', 'PAUSED', 'Sale {{1}}')] },
});
afterAll(() => graph.close());

const test = base.extend('wa', { scope: 'file' }, async ({ server }) =>
  whatsAppTenantIds(await server.seed(whatsAppTenantSeed(account))),
);
test.override('serverEnv', { SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url, TEMPLATE_SYNC_MINUTES: '0' });

const MESSAGES = `/v23.0/${account.phoneNumberId}/messages`;
const sends = () => graph.requests.filter((request) => request.path === MESSAGES);

/** The components Meta documents for this template's send, written out here rather than taken from the server. */
const springSaleComponents = (name: string, image: string, suffix: string, payload?: string) => [
  { type: 'header', parameters: [{ type: 'image', image: { link: image } }] },
  { type: 'body', parameters: [{ type: 'text', text: name }] },
  { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: suffix }] },
  ...(payload
    ? [{ type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload }] }]
    : []),
];

describe('template sends with a header and buttons', () => {
  test('chat/templates/send carries the media header and the button values in Meta’s shape', async ({ server, wa }) => {
    const listed = await server.client(wa.ownerKey).workspace.chat.templates.list({ channelId: wa.waChannelId });
    expect(listed.data.find((t) => t.name === 'spring_sale')).toMatchObject({
      header: { format: 'image' },
      buttons: [
        { type: 'url', text: 'Shop', url: 'https://acme.test/s/{{1}}' },
        { type: 'quick_reply', text: 'Stop' },
      ],
    });
    const reply = await server.client(wa.ownerKey).workspace.chat.templates.send({
      channelId: wa.waChannelId,
      to: '15550001234',
      templateName: 'spring_sale',
      variables: ['Ada'],
      header: { mediaUrl: 'https://cdn.acme.test/spring.jpg' },
      buttons: [
        { index: 0, value: 'ada-2026' },
        { index: 1, value: 'stop-spring' },
      ],
    });
    expect(reply.data.status).toBe('accepted');
    expect(sends().at(-1)?.body).toMatchObject({
      type: 'template',
      template: {
        name: 'spring_sale',
        language: { code: 'en_US' },
        components: springSaleComponents('Ada', 'https://cdn.acme.test/spring.jpg', 'ada-2026', 'stop-spring'),
      },
    });
  });

  test('a missing or wrong header or button value is a 400 naming it, and Meta is not called', async ({
    server,
    wa,
  }) => {
    const before = sends().length;
    const send = (extra: object) =>
      server.client(wa.ownerKey).workspace.chat.templates.send({
        channelId: wa.waChannelId,
        to: '15550001234',
        templateName: 'spring_sale',
        variables: ['Ada'],
        ...extra,
      });
    await expectInvalid(send({ buttons: [{ index: 0, value: 'x' }] }), 'header', 'needs \\{mediaUrl\\}');
    await expectInvalid(
      send({ header: { mediaUrl: 'https://cdn.acme.test/terms.pdf' }, buttons: [{ index: 0, value: 'x' }] }),
      'header',
      'format \\(image\\), not .pdf',
    );
    await expectInvalid(
      send({ header: { mediaUrl: 'https://cdn.acme.test/spring.jpg' } }),
      'buttons',
      'needs a value for button 0 \\(url\\)',
    );
    await expectInvalid(
      send({ header: { mediaUrl: 'https://cdn.acme.test/spring.jpg' }, buttons: [{ index: 3, value: 'x' }] }),
      'buttons.0.index',
      'the template has 2 buttons',
    );
    await expectInvalid(
      send({ header: { text: 'Hi', mediaUrl: 'https://cdn.acme.test/a.jpg' } }),
      'header',
      'not both',
    );
    expect(sends().length).toBe(before);
  });

  test('a scheduled send or a broadcast with a template that is not approved: template_not_approved', async ({
    server,
    wa,
  }) => {
    const api = server.client(wa.ownerKey).workspace;
    await expectError(
      api.chat.templates.send({
        channelId: wa.waChannelId,
        to: '15550001234',
        templateName: 'promo',
        variables: ['10%'],
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
      400,
      'template_not_approved',
      /"promo" is paused, not approved/,
    );
    await expectError(
      api.broadcasts.manage({
        channelId: wa.waChannelId,
        action: 'create',
        name: 'Paused promo',
        templateName: 'promo',
        variables: ['10%'],
        audience: { all: true },
      }),
      400,
      'template_not_approved',
    );
  });

  test('a broadcast fills its placeholders into the button value for each recipient', async ({ server, wa }) => {
    const api = server.client(wa.ownerKey).workspace;
    for (const [name, phone] of [
      ['Ada', '15550000101'],
      ['Grace', '15550000102'],
    ] as const) {
      await api.contacts.manage({ channelId: wa.waChannelId, name, phone });
    }
    await api.broadcasts.manage({
      channelId: wa.waChannelId,
      action: 'create',
      name: 'Spring',
      templateName: 'spring_sale',
      variables: ['{{contact.name}}'],
      header: { mediaUrl: 'https://cdn.acme.test/spring.jpg' },
      buttons: [{ index: 0, value: 'c-{{contact.phone}}' }],
      audience: { all: true },
    });
    // The audience is every contact: these two and the one the first send created.
    const toThem = () =>
      sends()
        .map((s) => s.body as { to: string; template: { components: unknown[] } })
        .filter((body) => ['15550000101', '15550000102'].includes(body.to))
        .sort((a, b) => a.to.localeCompare(b.to));
    await expect.poll(() => toThem().length, { timeout: 30_000, interval: 100 }).toBe(2);
    const broadcastSends = toThem();
    expect(broadcastSends.map((s) => [s.to, s.template.components])).toEqual([
      ['15550000101', springSaleComponents('Ada', 'https://cdn.acme.test/spring.jpg', 'c-15550000101')],
      ['15550000102', springSaleComponents('Grace', 'https://cdn.acme.test/spring.jpg', 'c-15550000102')],
    ]);
  });
});
