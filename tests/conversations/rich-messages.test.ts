import type { MessageSendParams } from '@switchboard/client';
import { afterAll, describe, expect } from 'vitest';
import { openRawStream } from '../helpers/event-stream.js';
import { expectError } from '../helpers/expect.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { test as base } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver } from '../helpers/receivers.js';
import { eventsOf } from '../whatsapp-inbound/inbound-fixture.js';
import { connected, metaMessage, postMessages } from '../whatsapp-inbound/inbound-media-fixture.js';
import { SECRETS_KEY, whatsAppAccount, whatsAppTenantIds, whatsAppTenantSeed } from '../whatsapp/whatsapp-fixtures.js';

/** Issue #40 on a WhatsApp Cloud API channel: each kind reaches the Graph stand-in in Meta's shape, and comes back. */
const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: [] },
});
const secret = newWebhookSecret();
const hooks = await startWebhookReceiver(secret);
afterAll(async () => {
  await graph.close();
  await hooks.close();
});

const MESSAGES_PATH = `/v23.0/${account.phoneNumberId}/messages`;
const CUSTOMER = '15550007777';
const calls = () => graph.requests.filter((request) => request.method === 'POST' && request.path === MESSAGES_PATH);
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const test = base
  .extend('wa', { scope: 'file' }, async ({ server }) => {
    const file = whatsAppTenantSeed(account);
    file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.received'] }];
    const wa = whatsAppTenantIds(await server.seed(file));
    // The customer wrote a minute ago (the window is open), and once 31 days ago (too old to react to).
    await server.seed({
      messages: [
        { msgid: 'wamid.OLD', createdAt: minutesAgo(31 * 24 * 60), text: 'Long ago' },
        { msgid: 'wamid.IN1', createdAt: minutesAgo(1), text: 'Where is my order?' },
      ].map((message) => ({ ...message, channel: wa.waChannelId, direction: 'inbound' as const, from: CUSTOMER })),
    });
    return wa;
  })
  .extend('chat', ({ server, wa }) => server.client(wa.ownerKey).workspace.chat);
test.override('serverEnv', {
  SECRETS_KEY,
  WHATSAPP_GRAPH_URL: graph.url,
  WHATSAPP_GRAPH_TIMEOUT_MS: '1000',
  TEMPLATE_SYNC_MINUTES: '0',
  ALLOW_HTTP_WEBHOOKS: 'true',
});

const BUTTONS = {
  kind: 'buttons' as const,
  header: { type: 'image' as const, mediaUrl: 'https://files.example.com/parcel.png' },
  body: 'Your order A-1001 ships today.',
  footer: 'Acme Support',
  buttons: [
    { id: 'track_order', title: 'Track order' },
    { id: 'talk_to_us', title: 'Talk to us' },
  ],
};
const LIST = {
  kind: 'list' as const,
  header: { text: 'Delivery' },
  body: 'When should we deliver?',
  button: 'Pick a slot',
  sections: [
    { title: 'Tomorrow', rows: [{ id: 'slot_am', title: 'Morning', description: '8:00–12:00' }] },
    { title: 'Later', rows: [{ id: 'slot_fri', title: 'Friday' }] },
  ],
};
const CTA = {
  kind: 'cta_url' as const,
  header: { text: 'A-1001' },
  body: 'Follow your parcel.',
  displayText: 'Track it',
  url: 'https://shop.example.com/track/A-1001',
};
const PLACE = { latitude: 52.3676, longitude: 4.9041, name: 'Acme Depot', address: 'Dam 1, Amsterdam' };

const SHAPES = [
  [
    { type: 'interactive' as const, interactive: BUTTONS },
    {
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'image', image: { link: BUTTONS.header.mediaUrl } },
        body: { text: BUTTONS.body },
        footer: { text: 'Acme Support' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'track_order', title: 'Track order' } },
            { type: 'reply', reply: { id: 'talk_to_us', title: 'Talk to us' } },
          ],
        },
      },
    },
  ],
  [
    { type: 'interactive' as const, interactive: LIST, replyTo: 'wamid.IN1' },
    {
      type: 'interactive',
      interactive: {
        type: 'list',
        header: { type: 'text', text: 'Delivery' },
        body: { text: LIST.body },
        action: { button: 'Pick a slot', sections: LIST.sections },
      },
      context: { message_id: 'wamid.IN1' },
    },
  ],
  [
    { type: 'interactive' as const, interactive: CTA },
    {
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        header: { type: 'text', text: 'A-1001' },
        body: { text: CTA.body },
        action: { name: 'cta_url', parameters: { display_text: 'Track it', url: CTA.url } },
      },
    },
  ],
  [
    { type: 'reaction' as const, reaction: { msgid: 'wamid.IN1', emoji: '👍' } },
    { type: 'reaction', reaction: { message_id: 'wamid.IN1', emoji: '👍' } },
  ],
  [
    { type: 'reaction' as const, reaction: { msgid: 'wamid.IN1', emoji: '' } },
    { type: 'reaction', reaction: { message_id: 'wamid.IN1', emoji: '' } },
  ],
  [
    { type: 'location' as const, location: PLACE },
    { type: 'location', location: PLACE },
  ],
] as const;

/** What the history shows of each send: its readable text and what it carried. */
const HISTORY = [
  { text: BUTTONS.body, interactive: BUTTONS },
  { text: LIST.body, interactive: LIST, replyTo: 'wamid.IN1' },
  { text: CTA.body, interactive: CTA },
  { text: '👍', reaction: { msgid: 'wamid.IN1', emoji: '👍' } },
  { text: null, reaction: { msgid: 'wamid.IN1', emoji: null } },
  { text: 'Acme Depot, Dam 1, Amsterdam', location: PLACE },
];

describe('interactive messages, reactions and locations on a WhatsApp Cloud API channel', () => {
  test.for(SHAPES.map((shape, i) => [...shape, HISTORY[i]!] as const))(
    'sends %o as one Graph call of Meta’s shape and keeps what it sent in the history',
    async ([params, shape, shown], { wa, chat }) => {
      const before = calls().length;
      const reply = await chat.message.send({ channelId: wa.waChannelId, to: CUSTOMER, ...params });
      expect(reply.data).toMatchObject({ status: 'accepted', to: CUSTOMER, type: params.type });
      expect(calls().slice(before)).toHaveLength(1);
      expect(calls().at(-1)!.body).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: CUSTOMER,
        ...shape,
      });
      const [latest] = (await chat.messages.list({ channelId: wa.waChannelId, phone: CUSTOMER, limit: 1 })).data;
      expect(latest).toEqual(
        expect.objectContaining({
          msgid: reply.data.msgid,
          direction: 'outbound',
          type: params.type,
          interactive: null,
          reaction: null,
          location: null,
          replyTo: null,
          ...shown,
        }),
      );
    },
  );

  test('refuses each limit with the field’s path before Meta is called', async ({ wa, chat }) => {
    const before = calls().length;
    const send = (params: object) =>
      chat.message.send({ channelId: wa.waChannelId, to: CUSTOMER, ...params } as MessageSendParams);
    const refusals: [object, string][] = [
      [
        {
          type: 'interactive',
          interactive: { ...BUTTONS, buttons: [BUTTONS.buttons[0], { id: 'b', title: 'x'.repeat(21) }] },
        },
        'interactive.buttons.1.title: must be at most 20 characters',
      ],
      [
        {
          type: 'interactive',
          interactive: { ...LIST, sections: [LIST.sections[0], { rows: [{ id: 'r', title: 'R' }] }] },
        },
        'interactive.sections.1.title: is required when there are several sections',
      ],
      [
        { type: 'interactive', interactive: { ...CTA, url: 'http://shop.example.com' } },
        'interactive.url: must be an https:// URL',
      ],
      [{ type: 'reaction', reaction: { msgid: 'wamid.IN1', emoji: 'yes' } }, 'reaction.emoji: must be one emoji'],
      [{ type: 'reaction', reaction: { msgid: 'wamid.OLD', emoji: '👍' } }, 'reaction.msgid: is older than 30 days'],
      [{ type: 'reaction', reaction: { msgid: 'wamid.ELSEWHERE', emoji: '👍' } }, 'reaction.msgid: is not the msgid'],
      [{ type: 'location', location: { latitude: 95, longitude: 0 } }, 'location.latitude: must be at most 90'],
    ];
    for (const [params, message] of refusals) await expectError(send(params), 400, 'invalid_request', message);
    expect(calls().length).toBe(before);
  });

  test('chat/message/read with typing sends Meta’s typing indicator with the read receipt', async ({ wa, chat }) => {
    const before = calls().length;
    await chat.message.read({ msgid: 'wamid.IN1', typing: true });
    await chat.message.read({ msgid: 'wamid.IN1' });
    await chat.message.read({ msgid: 'wamid.IN1', typing: true });
    const bodies = calls()
      .slice(before)
      .map((call) => call.body);
    const receipt = { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN1' };
    // Read already: only a call asking for the indicator reaches Meta again.
    expect(bodies).toEqual([
      { ...receipt, typing_indicator: { type: 'text' } },
      { ...receipt, typing_indicator: { type: 'text' } },
    ]);
    void wa;
  });

  test('a customer’s tap, reaction and location arrive with their ids, in the history and message.received', async ({
    server,
    wa,
    chat,
  }) => {
    const sent = await chat.message.send({
      channelId: wa.waChannelId,
      to: CUSTOMER,
      type: 'interactive',
      interactive: BUTTONS,
    });
    const tap = metaMessage('wamid.TAP1', 'interactive', {
      context: { from: '15550100000', id: sent.data.msgid },
      interactive: { type: 'button_reply', button_reply: { id: 'track_order', title: 'Track order' } },
    });
    const pick = metaMessage('wamid.TAP2', 'interactive', {
      interactive: { type: 'list_reply', list_reply: { id: 'slot_am', title: 'Morning', description: '8:00–12:00' } },
    });
    const reaction = metaMessage('wamid.REACT1', 'reaction', {
      reaction: { message_id: sent.data.msgid, emoji: '❤️' },
    });
    const place = metaMessage('wamid.LOC1', 'location', { location: PLACE });
    const stream = await openRawStream(server.baseUrl, wa.ownerKey, { query: { types: 'message.received' } });
    const reply = await postMessages(server.baseUrl, connected(account, wa.waChannelId), [tap, pick, reaction, place]);
    expect(reply.status).toBe(200);
    await server.untilIdle();
    // The live stream carries the same event: the tap with its id and the message tapped.
    const [live] = await stream.events(1, 20_000);
    stream.close();
    expect(JSON.parse(live!.data!).data).toMatchObject({
      msgid: 'wamid.TAP1',
      replyTo: sent.data.msgid,
      interactive: { kind: 'button_reply', id: 'track_order' },
    });

    const expected = {
      'wamid.TAP1': {
        type: 'interactive',
        text: 'Track order',
        replyTo: sent.data.msgid,
        interactive: { kind: 'button_reply', id: 'track_order', title: 'Track order' },
        reaction: null,
        location: null,
      },
      'wamid.TAP2': {
        type: 'interactive',
        text: 'Morning',
        replyTo: null,
        interactive: { kind: 'list_reply', id: 'slot_am', title: 'Morning', description: '8:00–12:00' },
        reaction: null,
        location: null,
      },
      'wamid.REACT1': {
        type: 'reaction',
        text: '❤️',
        replyTo: null,
        interactive: null,
        reaction: { msgid: sent.data.msgid, emoji: '❤️' },
        location: null,
      },
      'wamid.LOC1': {
        type: 'location',
        text: 'Acme Depot, Dam 1, Amsterdam',
        replyTo: null,
        interactive: null,
        reaction: null,
        location: PLACE,
      },
    };
    const history = (await chat.messages.list({ channelId: wa.waChannelId, phone: CUSTOMER, direction: 'inbound' }))
      .data;
    const received = eventsOf<{ msgid: string }>(hooks.received, 'message.received');
    for (const [msgid, shown] of Object.entries(expected)) {
      expect(history.find((message) => message.msgid === msgid)).toMatchObject(shown);
      const { type, text, ...rich } = shown;
      expect(received.find((event) => event.data.msgid === msgid)?.data).toMatchObject({ type, text, ...rich });
    }
  });

  test('the inbox’s lastMessage shows the buttons sent, then the customer’s tap on one', async ({
    server,
    wa,
    chat,
  }) => {
    const phone = '15550007778';
    const inbound = { channel: wa.waChannelId, direction: 'inbound' as const, from: phone };
    await server.seed({ messages: [{ ...inbound, msgid: 'wamid.IN2', createdAt: minutesAgo(1), text: 'Tracking?' }] });
    const lastOf = async () =>
      (await chat.conversations.list({ channelId: wa.waChannelId })).data.find((each) => each.phone === phone)
        ?.lastMessage;
    expect(await lastOf()).toMatchObject({ msgid: 'wamid.IN2', interactive: null });
    const sent = await chat.message.send({
      channelId: wa.waChannelId,
      to: phone,
      type: 'interactive',
      interactive: BUTTONS,
    });
    expect(await lastOf()).toMatchObject({
      msgid: sent.data.msgid,
      direction: 'outbound',
      interactive: { kind: 'buttons', buttons: BUTTONS.buttons },
    });
    const tap = {
      ...metaMessage(
        'wamid.TAP3',
        'interactive',
        {
          context: { from: '15550100000', id: sent.data.msgid },
          interactive: { type: 'button_reply', button_reply: { id: 'talk_to_us', title: 'Talk to us' } },
        },
        phone,
      ),
      // After the send (the fixture's messages are an hour old): the tap is the conversation's newest message.
      timestamp: String(Math.floor(Date.now() / 1000) + 2),
    };
    expect((await postMessages(server.baseUrl, connected(account, wa.waChannelId), [tap])).status).toBe(200);
    await server.untilIdle();
    expect(await lastOf()).toEqual({
      msgid: 'wamid.TAP3',
      direction: 'inbound',
      type: 'interactive',
      text: 'Talk to us',
      interactive: { kind: 'button_reply', id: 'talk_to_us', title: 'Talk to us' },
      createdAt: expect.any(String),
    });
  });
});
