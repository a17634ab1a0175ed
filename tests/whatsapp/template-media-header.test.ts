import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Template } from '@switchboard/contract';
import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectInvalid } from '../helpers/expect.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { startHttpsFiles } from '../helpers/https-files.js';
import { freePort } from '../helpers/ports.js';
import type { TestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';
import {
  META_TEMPLATES,
  SECRETS_KEY,
  whatsAppAccount,
  whatsAppTenantIds,
  whatsAppTenantSeed,
} from './whatsapp-fixtures.js';

const account = whatsAppAccount();
const APP_ID = '7788990011';
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: META_TEMPLATES() },
  appIds: [APP_ID],
});
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(2048)]);
const MP4 = Buffer.concat([Buffer.from('000000186674797069736f6d', 'hex'), randomBytes(4096)]);
const MB = 1024 * 1024;
/** More than Meta's image limit, streamed without a length, so only counting the bytes can stop it. */
function endlessImage(res: ServerResponse) {
  res.on('error', () => {});
  res.writeHead(200, { 'content-type': 'image/png' });
  for (let i = 0; i < 6; i += 1) res.write(Buffer.alloc(MB));
  res.end();
}
const files = await startHttpsFiles({
  '/banner.png': { type: 'image/png', bytes: PNG },
  '/clip.mp4': { type: 'video/mp4', bytes: MP4 },
  '/page.html': { type: 'text/html; charset=utf-8', bytes: Buffer.from('<p>Not an image</p>') },
  '/huge.png': endlessImage,
});
afterAll(() => Promise.all([graph.close(), files.close()]));

const TEMPLATES_PATH = `/v23.0/${account.wabaId}/message_templates`;
const UPLOADS_PATH = `/v23.0/${APP_ID}/uploads`;

const test = base.extend('wa', { scope: 'file' }, async ({ server }) => {
  const file = whatsAppTenantSeed(account);
  const [wa, ...others] = file.channels!;
  const channels = [{ ...wa!, provider: { ...(wa!.provider as object), appId: APP_ID } as never }, ...others];
  return whatsAppTenantIds(await server.seed({ ...file, channels }));
});
// The sample server is on 127.0.0.1, which the request forgery guard refuses without it.
test.override('serverEnv', {
  SECRETS_KEY,
  WHATSAPP_GRAPH_URL: graph.url,
  TEMPLATE_SYNC_MINUTES: '0',
  ALLOW_HTTP_WEBHOOKS: 'true',
});

type Templates = ReturnType<TestServer['client']>['workspace']['chat']['templates'];

/** A marketing template whose image header's sample is at `mediaUrl`. */
const createWithImage = (templates: Templates, channelId: string, name: string, mediaUrl: string) =>
  templates.manage({
    channelId,
    action: 'create',
    name,
    language: 'en_US',
    category: 'MARKETING',
    header: { format: 'image', mediaUrl },
    body: { text: 'Our spring sale is on.' },
  });

/** Meta's resumable upload as the stand-in received it: the session, then the bytes, answered with a handle. */
function uploadSince(before: number) {
  const received = graph.requests.slice(before);
  const session = received.find((r) => r.method === 'POST' && r.path === UPLOADS_PATH);
  const transfer = received.find((r) => r.method === 'POST' && r.path.startsWith('/v23.0/upload:'));
  return { session, transfer };
}

describe('a template media header on a WhatsApp Cloud API channel with its app ID', () => {
  test('create fetches the sample, uploads it on the app, and Meta reviews the upload’s handle', async ({
    server,
    wa,
  }) => {
    const before = graph.requests.length;
    const templates = server.client(wa.ownerKey).workspace.chat.templates;
    const created = await createWithImage(templates, wa.waChannelId, 'spring_sale', `${files.url}/banner.png`);
    expect(created.data).toMatchObject({ name: 'spring_sale', status: 'pending', header: { format: 'image' } });
    const { session, transfer } = uploadSince(before);
    expect(session).toMatchObject({
      query: { file_name: 'banner.png', file_length: String(PNG.length), file_type: 'image/png' },
      authorization: `Bearer ${account.accessToken}`,
    });
    expect(transfer?.authorization).toBe(`OAuth ${account.accessToken}`);
    expect(transfer?.headers.file_offset).toBe('0');
    expect(transfer?.raw.equals(PNG)).toBe(true);
    const [handle, upload] = [...graph.uploads].at(-1)!;
    expect(upload).toMatchObject({ appId: APP_ID, fileType: 'image/png', fileName: 'banner.png' });
    const review = graph.requests.findLast((r) => r.method === 'POST' && r.path === TEMPLATES_PATH);
    expect((review?.body as { components: unknown[] }).components[0]).toEqual({
      type: 'HEADER',
      format: 'IMAGE',
      example: { header_handle: [handle] },
    });
    // The handle is what is kept: an edit that leaves the header as it is submits the same one.
    const [row] = await sql<{ header: unknown }>(server.databaseUrl, 'select header from templates where id = $1', [
      (created.data as Template).id,
    ]);
    expect(row!.header).toEqual({ format: 'image', example: handle });
  });

  test('update with a video header uploads its sample and Meta’s edit carries the new handle', async ({
    server,
    wa,
  }) => {
    const templates = server.client(wa.ownerKey).workspace.chat.templates;
    const rejected = (await templates.list({ channelId: wa.waChannelId, status: 'rejected' })).data.find(
      (t) => t.name === 'rejected_one',
    )!;
    const before = graph.requests.length;
    const edited = await templates.manage({
      channelId: wa.waChannelId,
      action: 'update',
      templateId: rejected.id,
      header: { format: 'video', mediaUrl: `${files.url}/clip.mp4` },
    });
    expect(edited.data).toMatchObject({ status: 'pending', header: { format: 'video' } });
    const { session, transfer } = uploadSince(before);
    expect(session?.query).toEqual({ file_name: 'clip.mp4', file_length: String(MP4.length), file_type: 'video/mp4' });
    expect(transfer?.raw.equals(MP4)).toBe(true);
    const edit = graph.requests.slice(before).find((r) => r.method === 'POST' && /^\/v23\.0\/\d+$/.test(r.path));
    expect((edit?.body as { components: unknown[] }).components[0]).toEqual({
      type: 'HEADER',
      format: 'VIDEO',
      example: { header_handle: [[...graph.uploads.keys()].at(-1)] },
    });
  });

  test.for([
    ['a host that does not answer', async () => `https://127.0.0.1:${await freePort()}/banner.png`, /ECONNREFUSED/],
    ['a missing file', async () => `${files.url}/missing.png`, /answered HTTP 404/],
    ['a page, not an image', async () => `${files.url}/page.html`, /is text\/html; Meta takes image\/jpeg or/],
    ['a file over Meta’s limit', async () => `${files.url}/huge.png`, /is larger than 5 MB, Meta’s limit for an image/],
  ] as const)(
    'a sample that cannot be used (%s) is a 400 naming header.mediaUrl; Meta is not asked',
    async ([, mediaUrl, why], { server, wa }) => {
      const before = graph.requests.length;
      await expectInvalid(
        createWithImage(
          server.client(wa.ownerKey).workspace.chat.templates,
          wa.waChannelId,
          'unusable_sample',
          await mediaUrl(),
        ),
        'header\\.mediaUrl',
        why,
      );
      expect(graph.requests.slice(before)).toEqual([]);
    },
  );

  test('a sandbox channel takes a media header without fetching its sample: nothing is uploaded', async ({
    server,
    wa,
  }) => {
    const requested = files.requested.length;
    const templates = server.client(wa.ownerKey).workspace.chat.templates;
    const created = await createWithImage(templates, wa.sandboxChannelId, 'sandbox_banner', `${files.url}/banner.png`);
    expect(created.data).toMatchObject({ status: 'pending', header: { format: 'image' } });
    expect(files.requested.length).toBe(requested);
  });
});
