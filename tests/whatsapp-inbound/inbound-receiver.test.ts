import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { createLogger } from '@switchboard/server';
import { inboundRetention } from '../../apps/server/src/modules/whatsapp-inbound/inbound-retention.js';
import { webhookSignature } from '../../apps/server/src/modules/whatsapp-inbound/webhook-signature.js';
import { sql } from '../helpers/database.js';
import { test as base } from '../helpers/test.js';
import {
  connectChannel,
  insertOutbound,
  messagesChange,
  notification,
  postSigned,
  SECRETS_KEY,
  storedDeliveries,
  type ConnectedChannel,
} from './inbound-fixture.js';

/** Issue #11, Meta → us: the verification handshake, the signature gate and what a valid POST is answered. */
const test = base.extend('whatsapp', { scope: 'file' }, async ({ server, acme }) =>
  connectChannel({ em: server.database.orm.em.fork() }, acme.mainChannelId),
);
test.override('serverEnv', { SECRETS_KEY, DELIVERY_RETRY_SCHEDULE: '1' });

const verify = (baseUrl: string, channelId: string, query: Record<string, string>) =>
  fetch(`${baseUrl}/webhooks/whatsapp/${channelId}?${new URLSearchParams(query)}`);
const subscribe = (channel: ConnectedChannel, overrides: Record<string, string> = {}) => ({
  'hub.mode': 'subscribe',
  'hub.verify_token': channel.verifyToken,
  'hub.challenge': '1158201444',
  ...overrides,
});

async function expectRefused(reply: Response, status: number, message: RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await reply.json();
  expect(body).toEqual({
    success: false,
    error: status === 401 ? 'unauthorized' : 'forbidden',
    message: expect.stringMatching(message),
  });
}

describe('GET /webhooks/whatsapp/:channelId (Meta’s verification)', () => {
  test('answers the challenge as plain text for subscribe + the channel’s verify token', async ({
    server,
    whatsapp,
  }) => {
    const reply = await verify(server.baseUrl, whatsapp.channelId, subscribe(whatsapp));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await reply.text()).toBe('1158201444');
  });

  test(
    '403 for a wrong token, another mode, a missing challenge, or a channel that is not connected or does not ' +
      'exist',
    async ({ server, acme, whatsapp }) => {
      const refusals: [string, Record<string, string>][] = [
        [whatsapp.channelId, subscribe(whatsapp, { 'hub.verify_token': `${whatsapp.verifyToken}x` })],
        [whatsapp.channelId, subscribe(whatsapp, { 'hub.verify_token': whatsapp.verifyToken.slice(0, -1) })],
        [whatsapp.channelId, subscribe(whatsapp, { 'hub.mode': 'unsubscribe' })],
        [whatsapp.channelId, { 'hub.verify_token': whatsapp.verifyToken, 'hub.challenge': '1' }],
        [whatsapp.channelId, { 'hub.mode': 'subscribe', 'hub.verify_token': whatsapp.verifyToken }],
        [acme.secondChannelId, subscribe(whatsapp)],
        [randomUUID(), subscribe(whatsapp)],
        ['not-a-channel', subscribe(whatsapp)],
      ];
      for (const [channelId, query] of refusals)
        await expectRefused(await verify(server.baseUrl, channelId, query), 403, /verify token/);
    },
  );
});

describe('POST /webhooks/whatsapp/:channelId (signed events)', () => {
  const statusBody = (channel: ConnectedChannel, msgid: string) =>
    notification({
      wabaId: channel.wabaId,
      changes: [messagesChange(channel.phoneNumberId, { statuses: [{ id: msgid, status: 'delivered' }] })],
    });

  test('401 and nothing stored for a missing, malformed or wrong signature, or for another channel’s secret', async ({
    server,
    acme,
    whatsapp,
  }) => {
    const msgid = await insertOutbound(server.databaseUrl, whatsapp.channelId);
    const body = JSON.stringify(statusBody(whatsapp, msgid));
    const otherSecret = { ...whatsapp, appSecret: 'not-the-app-secret' };
    const attempts = [
      postSigned(server.baseUrl, whatsapp, body, null),
      postSigned(server.baseUrl, whatsapp, body, 'sha256=abc'),
      postSigned(server.baseUrl, whatsapp, body, `sha1=${'0'.repeat(40)}`),
      postSigned(server.baseUrl, otherSecret, body),
      // Signed over other bytes than those sent: the same JSON re-serialised with a space.
      postSigned(server.baseUrl, whatsapp, body, webhookSignature(`${body} `, whatsapp.appSecret)),
      postSigned(server.baseUrl, { ...whatsapp, channelId: acme.secondChannelId }, body),
      postSigned(server.baseUrl, { ...whatsapp, channelId: randomUUID() }, body),
    ];
    for (const reply of await Promise.all(attempts)) await expectRefused(reply, 401, /X-Hub-Signature-256/);
    expect(await storedDeliveries(server.databaseUrl, whatsapp.channelId)).toEqual([]);
    expect(await sql(server.databaseUrl, 'select count(*)::int as n from whatsapp_inbound_deliveries')).toEqual([
      { n: 0 },
    ]);
    expect(await sql(server.databaseUrl, 'select status from messages where msgid = $1', [msgid])).toEqual([
      { status: 'accepted' },
    ]);
  });

  test('200 for a valid delivery, stored once however often Meta sends it, and applied by the job', async ({
    server,
    whatsapp,
  }) => {
    const msgid = await insertOutbound(server.databaseUrl, whatsapp.channelId);
    const body = JSON.stringify(statusBody(whatsapp, msgid));
    const first = await postSigned(server.baseUrl, whatsapp, body);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ success: true, data: { received: true, duplicate: false } });
    const again = await postSigned(server.baseUrl, whatsapp, body);
    expect(await again.json()).toEqual({ success: true, data: { received: true, duplicate: true } });

    await expect
      .poll(async () => (await storedDeliveries(server.databaseUrl, whatsapp.channelId)).map((row) => row.status), {
        timeout: 10_000,
      })
      .toContain('applied');
    const rows = await sql(
      server.databaseUrl,
      'select status, attempts, body from whatsapp_inbound_deliveries where channel_id = $1',
      [whatsapp.channelId],
    );
    expect(rows.filter((row) => (row.body as Buffer).toString('utf8') === body)).toEqual([
      { status: 'applied', attempts: 1, body: Buffer.from(body) },
    ]);
    expect(await sql(server.databaseUrl, 'select status from messages where msgid = $1', [msgid])).toEqual([
      { status: 'delivered' },
    ]);
  });

  test('the hourly retention task deletes applied deliveries past 14 days, never pending ones', async ({
    server,
    whatsapp,
  }) => {
    const bodies = ['{"retention":"old applied"}', '{"retention":"old pending"}', '{"retention":"recent applied"}'];
    for (const body of bodies) expect((await postSigned(server.baseUrl, whatsapp, body)).status).toBe(200);
    const age = (body: string, days: number, status: string) =>
      sql(
        server.databaseUrl,
        `update whatsapp_inbound_deliveries set created_at = now() - make_interval(days => $2), status = $3 where ` +
          `convert_from(body, 'UTF8') = $1`,
        [body, days, status],
      );
    await expect
      .poll(
        async () =>
          (await storedDeliveries(server.databaseUrl, whatsapp.channelId)).filter((row) => row.status === 'pending')
            .length,
        { timeout: 10_000 },
      )
      .toBe(0);
    await age(bodies[0]!, 15, 'applied');
    await age(bodies[1]!, 15, 'pending');
    await age(bodies[2]!, 13, 'applied');
    await inboundRetention.run({ em: server.database.orm.em, jobs: server.jobs, logger: createLogger('silent') });
    const left = await sql(
      server.databaseUrl,
      `select convert_from(body, 'UTF8') as body from whatsapp_inbound_deliveries where convert_from(body, 'UTF8') ` +
        `like '%retention%' order by 1`,
    );
    expect(left.map((row) => row.body)).toEqual([bodies[1], bodies[2]]);
  });

  test('a signed body that is not JSON is answered 200, stored and skipped (Meta would retry anything else)', async ({
    server,
    whatsapp,
  }) => {
    const reply = await postSigned(server.baseUrl, whatsapp, 'this is not json {');
    expect(reply.status).toBe(200);
    await expect
      .poll(
        async () =>
          await sql(
            server.databaseUrl,
            `select status, last_error from whatsapp_inbound_deliveries where convert_from(body, 'UTF8') = $1`,
            ['this is not json {'],
          ),
        { timeout: 10_000 },
      )
      .toEqual([{ status: 'applied', last_error: null }]);
  });

  test('413 in the envelope for a body over 5 MB; 405 for other methods', async ({ server, whatsapp }) => {
    const huge = await postSigned(server.baseUrl, whatsapp, `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`);
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({
      success: false,
      error: 'payload_too_large',
      message: 'The webhook body exceeds the 5mb limit.',
    });
    const put = await fetch(`${server.baseUrl}/webhooks/whatsapp/${whatsapp.channelId}`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });
});
