import { afterAll, describe, expect } from 'vitest';
import { createSecretBox } from '../../apps/server/src/kit/secrets.js';
import { signMediaLink } from '../../apps/server/src/modules/media/media-link.js';
import { sql } from '../helpers/database.js';
import { expectError, expectForbidden } from '../helpers/expect.js';
import { graphError, startGraphStandIn } from '../helpers/graph-stand-in.js';
import { test as base } from '../helpers/test.js';
import { insertOutbound } from '../whatsapp-inbound/inbound-fixture.js';
import {
  FILES,
  MEDIA_IDS,
  connected,
  metaMessage,
  nextMsgid,
  postMessages,
} from '../whatsapp-inbound/inbound-media-fixture.js';
import { SECRETS_KEY, whatsAppAccount, whatsAppTenantIds, whatsAppTenantSeed } from '../whatsapp/whatsapp-fixtures.js';

const PUBLIC_URL = 'https://switchboard.example.com';
const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: [] },
  media: { [MEDIA_IDS.photo]: FILES.photo, [MEDIA_IDS.invoice]: FILES.invoice },
});
afterAll(() => graph.close());

const PHOTO = nextMsgid();
const INVOICE = nextMsgid();
const TEXT = nextMsgid();

const test = base
  .extend('wa', { scope: 'file' }, async ({ server }) => {
    const wa = whatsAppTenantIds(await server.seed(whatsAppTenantSeed(account)));
    const reply = await postMessages(server.baseUrl, connected(account, wa.waChannelId), [
      metaMessage(PHOTO, 'image', { image: { id: MEDIA_IDS.photo, mime_type: 'image/jpeg', caption: 'Dented' } }),
      metaMessage(INVOICE, 'document', {
        document: { id: MEDIA_IDS.invoice, mime_type: 'application/pdf', filename: 'invoice 7.pdf' },
      }),
      metaMessage(TEXT, 'text', { text: { body: 'See the photo' } }),
    ]);
    expect(reply.status).toBe(200);
    await server.untilIdle();
    return wa;
  })
  .extend(
    'getMedia',
    ({ server, wa }) =>
      (msgid: string) =>
        server.client(wa.ownerKey).workspace.chat.media.get({ msgid }),
  )
  /** Opens a link as a browser would (no API key), at this server: PUBLIC_URL names where it is deployed. */
  .extend('open', ({ server }) => (url: string) => {
    expect(url.startsWith(`${PUBLIC_URL}/media/`)).toBe(true);
    return fetch(`${server.baseUrl}${new URL(url).pathname}`);
  });
test.override('serverEnv', {
  SECRETS_KEY,
  PUBLIC_URL,
  WHATSAPP_GRAPH_URL: graph.url,
  WHATSAPP_GRAPH_TIMEOUT_MS: '1000',
  TEMPLATE_SYNC_MINUTES: '0',
});

const mediaLookups = (mediaId: string) =>
  graph.requests.filter((request) => request.method === 'GET' && request.path === `/${graph.version}/${mediaId}`);
const rowId = async (databaseUrl: string, msgid: string) =>
  (await sql(databaseUrl, 'select id from messages where msgid = $1', [msgid]))[0]!.id as string;

async function expectLinkRefused(reply: Response) {
  expect(reply.status).toBe(404);
  expect(await reply.json()).toEqual({ success: false, error: 'media_not_found', message: expect.any(String) });
}

describe('chat/media/get and its link', () => {
  test('answers a 5-minute link after one Graph lookup; the link streams the bytes without a key', async ({
    getMedia,
    open,
  }) => {
    const before = mediaLookups(MEDIA_IDS.photo).length;
    const started = Date.now();
    const reply = await getMedia(PHOTO);
    expect(reply).toEqual({
      success: true,
      data: {
        url: expect.stringMatching(/^https:\/\/switchboard\.example\.com\/media\/[\w.-]+$/),
        mimeType: 'image/jpeg',
        size: FILES.photo.bytes.length,
        expiresAt: expect.any(String),
      },
    });
    // Five minutes from the reply, rounded up to the second.
    const expires = Date.parse(reply.data.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(started + 300_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 301_000);
    expect(mediaLookups(MEDIA_IDS.photo).length).toBe(before + 1);
    for (const secret of [account.accessToken, graph.url, MEDIA_IDS.photo])
      expect(JSON.stringify(reply)).not.toContain(secret);

    const file = await open(reply.data.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await file.arrayBuffer()).equals(FILES.photo.bytes)).toBe(true);
    // Opened again within its 5 minutes, the link works again.
    expect((await open(reply.data.url)).status).toBe(200);
    // Graph's short-lived URL is kept with the link: one lookup per link, none per open.
    expect(mediaLookups(MEDIA_IDS.photo).length).toBe(before + 1);
  });

  test('serves a document as an attachment under its filename', async ({ getMedia, open }) => {
    const { data } = await getMedia(INVOICE);
    expect(data).toMatchObject({ mimeType: 'application/pdf', size: FILES.invoice.bytes.length });
    const file = await open(data.url);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="invoice 7.pdf"');
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(FILES.invoice.bytes)).toBe(true);
  });

  test('a link altered, moved to another message or expired is 404 in the envelope', async ({
    server,
    getMedia,
    open,
  }) => {
    const { data } = await getMedia(PHOTO);
    const [messageId, expires, signature] = new URL(data.url).pathname.split('/').at(-1)!.split('.');
    const link = (token: string) => `${PUBLIC_URL}/media/${token}`;
    const flipped = signature!.slice(0, -2) + (signature!.at(-2) === 'A' ? 'B' : 'A') + signature!.at(-1);
    const invoiceId = await rowId(server.databaseUrl, INVOICE);
    await expectLinkRefused(await open(link(`${messageId}.${expires}.${flipped}`)));
    await expectLinkRefused(await open(link(`${invoiceId}.${expires}.${signature}`)));
    await expectLinkRefused(await open(link(`${messageId}.${Number(expires) + 600}.${signature}`)));
    await expectLinkRefused(await open(link('nonsense')));
    for (const hostile of ['%E0%A4%A', 'a'.repeat(10_000), '..%2F..%2Fetc%2Fpasswd', `${messageId}.${expires}.%00`]) {
      const reply = await open(link(hostile));
      expect(reply.status, hostile.slice(0, 40)).toBeLessThan(500);
      expect(await reply.json()).toMatchObject({ success: false });
    }
    // Signed with the server's own key, but five minutes and one second ago: expired.
    const key = createSecretBox(SECRETS_KEY).deriveKey('media links');
    const stale = signMediaLink(key, messageId!, new Date(Date.now() - 301_000));
    await expectLinkRefused(await open(link(stale.token)));
    const fresh = signMediaLink(key, messageId!, new Date());
    expect((await open(link(fresh.token))).status).toBe(200);
  });

  test('another tenant’s and unknown msgids are 403; a message without a customer’s file is 404', async ({
    server,
    acme,
    wa,
    getMedia,
  }) => {
    await expectForbidden(server.client(acme.ownerKey).workspace.chat.media.get({ msgid: PHOTO }));
    await expectForbidden(getMedia('wamid.UNKNOWN'));
    await expectError(getMedia(TEXT), 404, 'media_not_found');
    const outbound = await insertOutbound(server.databaseUrl, wa.waChannelId);
    await expectError(getMedia(outbound), 404, 'media_not_found');
  });

  test('Meta down: 503 provider_unavailable with Retry-After, from chat/media/get and from the link', async ({
    server,
    wa,
    getMedia,
    open,
  }) => {
    const { data } = await getMedia(PHOTO);
    graph.replyOnce({
      status: 503,
      body: graphError(2, 'Service temporarily unavailable'),
      headers: { 'retry-after': '9' },
    });
    const down = await fetch(`${server.baseUrl}/api/workspace/v1/chat/media/get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': wa.ownerKey },
      body: JSON.stringify({ msgid: PHOTO }),
    });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('9');
    const body = await down.text();
    expect(JSON.parse(body)).toMatchObject({ success: false, error: 'provider_unavailable' });
    expect(body).not.toContain(account.accessToken);
    graph.replyOnce({ drop: true });
    const broken = await open(data.url);
    expect(broken.status).toBe(503);
    expect(broken.headers.get('retry-after')).toBe('30');
    expect(await broken.json()).toMatchObject({ success: false, error: 'provider_unavailable' });
  });

  test('on a sandbox channel (the seed file’s photo) the file is a 1×1 PNG placeholder, through the same link', async ({
    server,
    acme,
    open,
  }) => {
    const before = graph.requests.length;
    const { data } = await server.client(acme.memberKey).workspace.chat.media.get({ msgid: acme.mediaMsgid });
    expect(data).toMatchObject({ mimeType: 'image/png', size: expect.any(Number) });
    const file = await open(data.url);
    expect(file.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(bytes.length).toBe(data.size);
    expect(graph.requests.length).toBe(before);
  });
});
