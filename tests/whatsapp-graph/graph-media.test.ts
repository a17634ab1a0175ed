import { createHash, randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphClient } from '../../apps/server/src/modules/whatsapp-graph/graph-client.js';
import { AppError } from '../../apps/server/src/kit/errors.js';
import { graphError, startGraphStandIn, type GraphStandIn } from '../helpers/graph-stand-in.js';

const TOKEN = `EAAG${randomBytes(24).toString('base64url')}`;
const CREDENTIALS = { phoneNumberId: '106540352242922', accessToken: TOKEN };
const PHOTO = randomBytes(40_000);

let graph: GraphStandIn;
let client: GraphClient;

beforeAll(async () => {
  graph = await startGraphStandIn({
    accessTokens: [TOKEN],
    media: { '1234567890': { mimeType: 'image/jpeg', bytes: PHOTO } },
  });
  client = new GraphClient({ graphUrl: graph.url, version: graph.version, timeoutMs: 2_000 });
});
afterAll(async () => {
  await client.close();
  await graph.close();
});

async function failure(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppError)) throw error;
  expect(error.message).not.toContain(TOKEN);
  return error;
}

describe('a customer’s media through Graph', () => {
  it('looks the file up with the token and the phone number id, then streams its bytes with the token', async () => {
    const media = await client.getMedia(CREDENTIALS, '1234567890');
    expect(media).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      mimeType: 'image/jpeg',
      sha256: createHash('sha256').update(PHOTO).digest('base64'),
      size: PHOTO.length,
    });
    expect(graph.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: `/${graph.version}/1234567890`,
      query: { phone_number_id: CREDENTIALS.phoneNumberId },
      authorization: `Bearer ${TOKEN}`,
    });
    const download = await client.downloadMedia(TOKEN, media.url);
    expect(download).toMatchObject({ contentType: 'image/jpeg', contentLength: PHOTO.length });
    expect((await buffer(download.body)).equals(PHOTO)).toBe(true);
    expect(graph.requests.at(-1)!.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('maps an unknown media id to 400, a refused token to 502 and Graph down to 503 with Retry-After', async () => {
    expect(await failure(client.getMedia(CREDENTIALS, '999'))).toMatchObject({
      status: 400,
      code: 'provider_rejected',
    });
    expect(await failure(client.getMedia({ ...CREDENTIALS, accessToken: 'EAAGwrong' }, '1234567890'))).toMatchObject({
      status: 502,
      code: 'provider_unauthorized',
    });
    graph.replyOnce({
      status: 503,
      body: graphError(2, 'Service temporarily unavailable'),
      headers: { 'retry-after': '7' },
    });
    expect(await failure(client.getMedia(CREDENTIALS, '1234567890'))).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
      headers: { 'Retry-After': '7' },
    });
    const { url } = await client.getMedia(CREDENTIALS, '1234567890');
    graph.replyOnce({ status: 500, body: graphError(1, 'An unknown error occurred') });
    expect(await failure(client.downloadMedia(TOKEN, url))).toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
    expect(await failure(client.downloadMedia('EAAGwrong', url))).toMatchObject({ status: 503 });
  });

  it('never sends the token to a media URL on another host', async () => {
    const before = graph.requests.length;
    for (const url of ['https://evil.example.com/a.jpg', 'http://lookaside.fbsbx.com/x', 'https://fbsbx.com.evil.io/x'])
      expect(await failure(client.downloadMedia(TOKEN, url))).toMatchObject({ status: 503 });
    expect(graph.requests.length).toBe(before);
  });
});
