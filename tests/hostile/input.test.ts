import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectEnvelopeError, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';

const WS = '/api/workspace/v1';
const CHANNELS = `${WS}/channels/list`;
const LABELS_MANAGE = `${WS}/labels/manage`;
const CONTACTS = `${WS}/contacts/list`;

const test = base.extend('headers', ({ acme }) => ({ 'X-API-Key': acme.ownerKey }));

/** A raw HTTP/1.1 exchange, for requests axios refuses to send (oversized or malformed headers). */
function rawExchange(
  port: number,
  head: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [headText = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = headText.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

describe('hostile input is refused with a 400 that names the field', () => {
  test('NUL bytes in any string parameter, JSON body or query', async ({ server, acme, headers }) => {
    const cases: [string, Record<string, unknown>, string][] = [
      [CONTACTS, { search: 'a\u0000b' }, 'search'],
      [LABELS_MANAGE, { channelId: acme.mainChannelId, name: 'x\u0000' }, 'name'],
      [LABELS_MANAGE, { channelId: acme.mainChannelId, name: 'ok', description: 'line\u0000' }, 'description'],
      [`${WS}/chat/message/status`, { msgid: '\u0000' }, 'msgid'],
      [
        `${WS}/chat/templates/send`,
        { channelId: acme.mainChannelId, to: '15550000001', templateName: 'order_update', variables: ['a\u0000'] },
        'variables\\.0',
      ],
      ['/api/platform/v1/tickets/manage', { platformId: acme.platformId, ticketId: 'TK\u0000' }, 'ticketId'],
    ];
    for (const [path, body, field] of cases) {
      const post = await server.http.post(path, body, { headers });
      expectEnvelopeError(post, 400, 'invalid_request');
      expect(post.data.message, path).toMatch(new RegExp(`${field}: must not contain`));
    }
    const get = await server.http.get(`${WS}/chat/message/status?msgid=%00`, { headers });
    expectEnvelopeError(get, 400, 'invalid_request');
    expect(get.data.message).toMatch(/msgid: must not contain/);
  });

  test('unpaired UTF-16 surrogates are refused (PostgreSQL JSON cannot hold them); emoji pairs are fine', async ({
    server,
    acme,
    headers,
  }) => {
    const send = { channelId: acme.mainChannelId, to: '15550000001', templateName: 'order_update' };
    for (const variables of [
      ['\ud800', 'A-1'],
      ['Ada', 'x\udfffy'],
    ]) {
      const reply = await server.http.post(`${WS}/chat/templates/send`, { ...send, variables }, { headers });
      expectEnvelopeError(reply, 400, 'invalid_request');
      expect(reply.data.message).toMatch(/variables\.\d: must not contain .*unpaired surrogates/);
    }
    const emoji = await server.http.post(
      LABELS_MANAGE,
      { channelId: acme.mainChannelId, name: 'vip \u{1F31F}' },
      { headers },
    );
    expect(emoji.status).toBe(200);
    expect(emoji.data.data.name).toBe('vip \u{1F31F}');
  });

  test('C0 controls in single-line fields; free text keeps its line breaks', async ({ server, acme, headers }) => {
    for (const name of ['a\nb', 'a\rb', 'tab\there', 'bell\u0007', 'del\u007f']) {
      const reply = await server.http.post(LABELS_MANAGE, { channelId: acme.mainChannelId, name }, { headers });
      expectEnvelopeError(reply, 400, 'invalid_request');
      expect(reply.data.message).toMatch(/name: must not contain control characters/);
    }
    const ok = await server.http.post(
      LABELS_MANAGE,
      { channelId: acme.mainChannelId, name: 'multi', description: 'line one\nline two\ttabbed' },
      { headers },
    );
    expect(ok.status).toBe(200);
    const stored = await sql(server.databaseUrl, "select count(*)::int as n from labels where name ~ '[[:cntrl:]]'");
    expect(stored[0]!.n).toBe(0);
  });

  test('a body that is not what its Content-Encoding says is 400', async ({ server, acme, headers }) => {
    for (const encoding of ['gzip', 'deflate']) {
      const reply = await server.http.post(LABELS_MANAGE, Buffer.from('{"name":"plain, not compressed"}'), {
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        transformRequest: (data: Buffer) => data,
      });
      expectEnvelopeError(reply, 400, 'invalid_request');
      expect(reply.data.message).toMatch(/decompress/);
    }
    const real = gzipSync(JSON.stringify({ channelId: acme.mainChannelId, name: 'zipped' }));
    const ok = await server.http.post(LABELS_MANAGE, real, {
      headers: { ...headers, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      transformRequest: (data: Buffer) => data,
    });
    expect(ok.status).toBe(200);
  });

  test('bracket query syntax names the parameter; a repeated key is a list only where one is taken', async ({
    server,
    acme,
    headers,
  }) => {
    const addon = `/api/platform/v1/addon/manage?platformId=${acme.platformId}&userId=${acme.ownerId}&quantity[]=5`;
    const brackets = await server.http.get(addon, { headers });
    expectEnvelopeError(brackets, 400, 'invalid_request');
    expect(brackets.data.message).toMatch(/quantity\[\]: bracket syntax is not supported/);
    const nested = await server.http.get(`${CONTACTS}?search[like]=ada`, { headers });
    expect(nested.data.message).toMatch(/search\[like\]: bracket syntax/);

    const twice = await server.http.get(`${CONTACTS}?search=ada&search=grace`, { headers });
    expectEnvelopeError(twice, 400, 'invalid_request');
    expect(twice.data.message).toMatch(/search: given more than once/);
    // templates/send takes `variables` as a list: repeating it is the GET spelling of the array form.
    const list = await server.http.get(
      `${WS}/chat/templates/send?channelId=${acme.mainChannelId}&to=15550000001&templateName=order_update` +
        '&variables=Ada,%20Jr&variables=A-1',
      { headers },
    );
    expect(list.status, JSON.stringify(list.data)).toBe(200);
  });

  test('unknown parameters and malformed ids are 400, not ignored or 403', async ({ server, acme, headers }) => {
    const typo = await server.http.get(`${CONTACTS}?serach=ada`, { headers });
    expectEnvelopeError(typo, 400, 'invalid_request');
    expect(typo.data.message).toBe('serach: unknown parameter');
    await expectInvalid(
      server.client(acme.ownerKey).workspace.contacts.list({ serach: 'ada' } as never),
      'serach',
      'unknown parameter',
    );
    await expectInvalid(
      server.client(acme.ownerKey).workspace.labels.list({ channelId: 'not-a-uuid' }),
      'channelId',
      'UUID',
    );
    await expectInvalid(
      server.client(acme.ownerKey).platform.subscription.list({ platformId: '{{platformId}}' }),
      'platformId',
      'UUID',
    );
  });
});

describe('credentials: one key, in a header, with a known scheme', () => {
  test('Authorization without Bearer, or two different keys, is 401 naming the header to use', async ({
    server,
    acme,
  }) => {
    const bare = await server.http.post(CHANNELS, {}, { headers: { Authorization: acme.ownerKey } });
    expectEnvelopeError(bare, 401, 'unauthorized');
    expect(bare.data.message).toMatch(/Bearer <API key>.*X-API-Key/);
    const two = await server.http.post(
      CHANNELS,
      {},
      { headers: { 'X-API-Key': acme.ownerKey, Authorization: `Bearer ${acme.memberKey}` } },
    );
    expectEnvelopeError(two, 401, 'unauthorized');
    expect(two.data.message).toMatch(/two different keys/);
    const same = await server.http.post(
      CHANNELS,
      {},
      { headers: { 'X-API-Key': acme.ownerKey, Authorization: `Bearer ${acme.ownerKey}` } },
    );
    expect(same.status).toBe(200);
  });

  test('a key in a GET body is refused like one in a POST body', async ({ server, acme, headers }) => {
    const reply = await server.http.request({
      method: 'GET',
      url: CHANNELS,
      data: { apiKey: acme.memberKey },
      headers,
    });
    expectEnvelopeError(reply, 401, 'unauthorized');
    expect(reply.data.message).toMatch(/header/);
  });

  test('every 401 says WWW-Authenticate: Bearer', async ({ server }) => {
    for (const headers of [{}, { 'X-API-Key': 'nope' }, { Authorization: 'Basic abc' }]) {
      const reply = await server.http.post(CHANNELS, {}, { headers });
      expectEnvelopeError(reply, 401, 'unauthorized');
      expect(reply.headers['www-authenticate']).toBe('Bearer');
    }
  });
});

describe('replies the HTTP parser writes are the envelope too', () => {
  test('headers over 16 KB → 431, a control character in a header → 400, both JSON with a request id', async ({
    server,
  }) => {
    const port = Number(new URL(server.baseUrl).port);
    const cases = [
      { head: `GET ${CONTACTS}?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 431 },
      { head: `GET ${CHANNELS} HTTP/1.1\r\nHost: x\r\nX-Api-Key: a\u0001b\r\n\r\n`, status: 400 },
    ];
    for (const { head, status } of cases) {
      const reply = await rawExchange(port, head);
      expect(reply.status).toBe(status);
      expect(reply.headers['content-type']).toMatch(/application\/json/);
      expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(reply.body)).toEqual({
        success: false,
        error: status === 431 ? 'request_headers_too_large' : 'invalid_request',
        message: expect.any(String),
      });
    }
  });
});
