import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { test as base } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver } from '../helpers/receivers.js';
import { eventsOf, isoAt } from './inbound-fixture.js';
import {
  FILES,
  MEDIA_IDS,
  connected,
  metaMessage,
  nextMsgid,
  postMessages,
  sha256Of,
} from './inbound-media-fixture.js';
import { SECRETS_KEY, whatsAppAccount, whatsAppTenantIds, whatsAppTenantSeed } from '../whatsapp/whatsapp-fixtures.js';

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

const test = base.extend('wa', { scope: 'file' }, async ({ server }) => {
  const file = whatsAppTenantSeed(account);
  file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.received'] }];
  return whatsAppTenantIds(await server.seed(file));
});
test.override('serverEnv', {
  SECRETS_KEY,
  WHATSAPP_GRAPH_URL: graph.url,
  TEMPLATE_SYNC_MINUTES: '0',
  ALLOW_HTTP_WEBHOOKS: 'true',
  DELIVERY_RETRY_SCHEDULE: '1',
});

/** One of each inbound type Meta sends (Meta's webhooks reference), with what a reader should see of it. */
const CASES = [
  {
    type: 'image',
    content: { image: { id: MEDIA_IDS.photo, mime_type: 'image/jpeg', sha256: sha256Of(FILES.photo), caption: 'Box' } },
    text: 'Box',
    media: { mediaId: MEDIA_IDS.photo, mimeType: 'image/jpeg', caption: 'Box' },
    sha256: sha256Of(FILES.photo),
  },
  {
    type: 'document',
    content: {
      document: { id: MEDIA_IDS.invoice, mime_type: 'application/pdf', sha256: 'c2hh', filename: 'invoice.pdf' },
    },
    text: null,
    media: { mediaId: MEDIA_IDS.invoice, mimeType: 'application/pdf', filename: 'invoice.pdf' },
    sha256: 'c2hh',
  },
  {
    type: 'audio',
    content: { audio: { id: '880000000000003', mime_type: 'audio/ogg; codecs=opus', sha256: 'YQ==', voice: true } },
    text: null,
    media: { mediaId: '880000000000003', mimeType: 'audio/ogg; codecs=opus' },
    sha256: 'YQ==',
  },
  {
    type: 'video',
    content: { video: { id: '880000000000004', mime_type: 'video/mp4', sha256: 'Yg==', caption: 'Unboxing' } },
    text: 'Unboxing',
    media: { mediaId: '880000000000004', mimeType: 'video/mp4', caption: 'Unboxing' },
    sha256: 'Yg==',
  },
  {
    type: 'sticker',
    content: { sticker: { id: '880000000000005', mime_type: 'image/webp', sha256: 'Yw==', animated: false } },
    text: null,
    media: { mediaId: '880000000000005', mimeType: 'image/webp' },
    sha256: 'Yw==',
  },
  {
    type: 'location',
    content: { location: { latitude: 51.5072, longitude: -0.1276, name: 'Depot', address: '1 Dock Rd' } },
    text: 'Depot, 1 Dock Rd',
  },
  { type: 'location', content: { location: { latitude: 48.8566, longitude: 2.3522 } }, text: '48.8566,2.3522' },
  {
    type: 'contacts',
    content: { contacts: [{ name: { formatted_name: 'Ada Lovelace' }, phones: [{ phone: '+1 555 0101' }] }] },
    text: 'Ada Lovelace',
  },
  {
    type: 'interactive',
    content: { interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes, ship it' } } },
    text: 'Yes, ship it',
  },
  {
    type: 'interactive',
    content: { interactive: { type: 'list_reply', list_reply: { id: 'slot2', title: 'Tomorrow', description: 'am' } } },
    text: 'Tomorrow',
  },
  { type: 'button', content: { button: { text: 'Track order', payload: 'TRACK' } }, text: 'Track order' },
  { type: 'reaction', content: { reaction: { message_id: 'wamid.OUT1', emoji: '❤️' } }, text: '❤️' },
  {
    type: 'unsupported',
    content: { errors: [{ code: 131051, title: 'Message type unknown' }], unsupported: { type: 'poll' } },
    text: null,
  },
  { type: 'hologram', content: { hologram: { id: 'x' } }, text: null, stored: 'unsupported' },
].map((entry) => ({ ...entry, msgid: nextMsgid() }));

describe('every inbound WhatsApp message type', () => {
  test('is recorded with its type, readable text and media, visible through the API and in message.received', async ({
    server,
    wa,
  }) => {
    const channel = connected(account, wa.waChannelId);
    const reply = await postMessages(
      server.baseUrl,
      channel,
      CASES.map(({ msgid, type, content }) => metaMessage(msgid, type, content)),
    );
    expect(reply.status).toBe(200);
    await server.untilIdle();

    const client = server.client(wa.ownerKey).workspace;
    const rows = await sql(server.databaseUrl, 'select msgid, type, body, media from messages where msgid = any($1)', [
      CASES.map((entry) => entry.msgid),
    ]);
    const received = eventsOf<{ msgid: string }>(hooks.received, 'message.received');
    const listed = await client.chat.messages.list({ channelId: wa.waChannelId, phone: '15550007777', limit: 200 });
    expect(listed.data).toHaveLength(CASES.length);
    for (const entry of CASES) {
      const type = entry.stored ?? entry.type;
      const media = entry.media ?? null;
      expect((await client.chat.message.status({ msgid: entry.msgid })).data).toEqual({
        msgid: entry.msgid,
        status: 'delivered',
        direction: 'inbound',
        type,
      });
      expect(rows.find((row) => row.msgid === entry.msgid)).toEqual({
        msgid: entry.msgid,
        type,
        body: entry.text,
        media: media && { ...media, sha256: entry.sha256 },
      });
      expect(listed.data.find((item) => item.msgid === entry.msgid)).toMatchObject({
        direction: 'inbound',
        type,
        text: entry.text,
        media: media && { ...media, sha256: entry.sha256 },
      });
      const event = received.find((hit) => hit.data.msgid === entry.msgid);
      expect(event?.data, entry.type).toMatchObject({ type, text: entry.text, media, timestamp: isoAt(0) });
    }
    // No URL, token or hash of Meta's reaches a webhook receiver.
    const bodies = hooks.received.map((hit) => hit.body).join('\n');
    for (const secretText of [account.accessToken, graph.url, 'lookaside', 'sha256'])
      expect(bodies).not.toContain(secretText);
  });
});
