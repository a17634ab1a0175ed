import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { graphError, startGraphStandIn, templateMessageBody, type ScriptedReply } from '../helpers/graph-stand-in.js';
import { expectDeclaredHeaders } from '../export/declared-headers.js';
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

const ORDER = { to: '+1 555 000 1234', templateName: 'order_update', language: 'en_US', variables: ['Ada', 'A-1001'] };
const SEND_PATH = `/v23.0/${account.phoneNumberId}/messages`;
const sends = () => graph.requests.filter((request) => request.method === 'POST' && request.path === SEND_PATH).length;

const test = base
  .extend('wa', { scope: 'file' }, async ({ server }) =>
    whatsAppTenantIds(await server.seed(whatsAppTenantSeed(account))),
  )
  .extend(
    'send',
    ({ server, wa }) =>
      (params: Partial<typeof ORDER> = {}) =>
        server.client(wa.ownerKey).workspace.chat.templates.send({ channelId: wa.waChannelId, ...ORDER, ...params }),
  )
  .extend(
    'messageCount',
    ({ server, wa }) =>
      async () =>
        (
          await sql(server.databaseUrl, 'select count(*)::int as n from messages where channel_id = $1', [
            wa.waChannelId,
          ])
        )[0]!.n as number,
  )
  .extend(
    'newest',
    ({ server, wa }) =>
      async (count: number) =>
        sql<{ status: string; error_code: number | null; reason: string | null }>(
          server.databaseUrl,
          `select status, error_code, reason from messages where channel_id = $1 order by created_at desc, id desc
            limit $2`,
          [wa.waChannelId, count],
        ),
  );
test.override('serverEnv', {
  SECRETS_KEY,
  WHATSAPP_GRAPH_URL: graph.url,
  WHATSAPP_GRAPH_TIMEOUT_MS: '1000',
  TEMPLATE_SYNC_MINUTES: '0',
});

describe('chat/templates/send on a WhatsApp Cloud API channel', () => {
  test('makes one Graph call with the variables as body text parameters and records the wamid as msgid', async ({
    server,
    wa,
    send,
  }) => {
    const before = graph.requests.length;
    const reply = await send();
    expect(reply).toEqual({
      success: true,
      message: 'Template message queued',
      data: {
        msgid: expect.stringMatching(/^wamid\.STANDIN\d+$/),
        status: 'accepted',
        to: '15550001234',
        templateName: 'order_update',
      },
    });
    const calls = graph.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: SEND_PATH, authorization: `Bearer ${account.accessToken}` });
    expect(calls[0]!.body).toEqual(templateMessageBody('15550001234', 'order_update', 'en_US', ['Ada', 'A-1001']));
    const [row] = await sql(
      server.databaseUrl,
      'select channel_id, status, provider, template_name, language, variables, "to" from messages where msgid = $1',
      [reply.data.msgid],
    );
    expect(row).toEqual({
      channel_id: wa.waChannelId,
      status: 'accepted',
      provider: 'whatsapp_cloud',
      template_name: 'order_update',
      language: 'en_US',
      variables: ['Ada', 'A-1001'],
      to: '15550001234',
    });
    const status = await server.client(wa.ownerKey).workspace.chat.message.status({ msgid: reply.data.msgid });
    expect(status.data).toEqual({
      msgid: reply.data.msgid,
      status: 'accepted',
      direction: 'outbound',
      type: 'template',
    });
  });

  test('sends a template without variables without components, and the language the caller picked', async ({
    send,
  }) => {
    await send({ templateName: 'welcome', variables: [] });
    expect(graph.requests.at(-1)!.body).toMatchObject({ template: { name: 'welcome', language: { code: 'en_US' } } });
    expect((graph.requests.at(-1)!.body as { template: object }).template).not.toHaveProperty('components');
    await send({ language: 'es_ES' });
    expect(graph.requests.at(-1)!.body).toMatchObject({
      template: { name: 'order_update', language: { code: 'es_ES' } },
    });
  });

  test('validates as for the sandbox first: a refused request reaches Meta not at all', async ({ send }) => {
    const before = sends();
    await expectInvalid(send({ variables: ['Ada'] }), 'variables', 'expects 2 values, got 1');
    await expectInvalid(send({ language: undefined }), 'language', 'exists in en_US, es_ES');
    await expectError(send({ templateName: 'promo', variables: ['x'] }), 404, 'template_not_found');
    await expectError(send({ templateName: 'paused_one', variables: ['x'] }), 404, 'template_not_found');
    expect(sends()).toBe(before);
  });

  // Every send is recorded before the provider is called (issue #39): a refused one ends `failed` with Meta's code.
  test('answers Meta’s refusals with 400 provider_rejected (Meta’s code, text), records them failed', async ({
    send,
    messageCount,
    newest,
  }) => {
    const before = await messageCount();
    graph.replyOnce({
      status: 400,
      body: graphError(131026, 'Message undeliverable', {
        error_data: { details: 'Recipient is not a WhatsApp user' },
      }),
    });
    await expectError(
      send(),
      400,
      'provider_rejected',
      new RegExp(
        '^WhatsApp Cloud API rejected the request while sending the template message: ' +
          String.raw`Message undeliverable — Recipient is not a WhatsApp user \(code 131026\)$`,
      ),
    );
    graph.replyOnce({ status: 400, body: graphError(131047, 'Re-engagement message') });
    await expectError(send(), 400, 'provider_rejected', /Re-engagement message \(code 131047\)/);
    // Meta's own check: the stand-in does not know this template in de_DE, whatever our copy says.
    graph.replyOnce({
      status: 404,
      body: graphError(132001, '(#132001) Template name does not exist in the translation'),
    });
    await expectError(send(), 400, 'provider_rejected', /\(code 132001\)/);
    expect(await messageCount()).toBe(before + 3);
    expect(await newest(3)).toEqual(
      [132001, 131047, 131026].map((code) => ({ status: 'failed', error_code: code, reason: null })),
    );
  });

  test('answers a refused token with 502 provider_unauthorized and records it failed', async ({
    send,
    messageCount,
    newest,
  }) => {
    const before = await messageCount();
    graph.replyOnce({
      status: 401,
      body: graphError(190, 'Error validating access token: Session has expired', { error_subcode: 463 }),
    });
    const failure = await expectError(
      send(),
      502,
      'provider_unauthorized',
      /refused the channel's credentials .*Session has expired \(code 190, subcode 463\)/,
    );
    expect(failure.message).not.toContain(account.accessToken);
    expect(await messageCount()).toBe(before + 1);
    expect(await newest(1)).toEqual([{ status: 'failed', error_code: 190, reason: null }]);
  });

  const UNAVAILABLE: [string, ScriptedReply, string, number | null][] = [
    ['Graph 500', { status: 500, body: graphError(131000, 'Something went wrong') }, '30', 131000],
    [
      'Graph 503 with Retry-After',
      { status: 503, body: graphError(2, 'Service temporarily unavailable'), headers: { 'retry-after': '17' } },
      '17',
      2,
    ],
    // Not queued again as a throttled pipeline send is: the caller, answered 503, retries it.
    ['a rate limit', { status: 429, body: graphError(130429, 'Rate limit hit') }, '60', 130429],
    ['a timeout', { status: 200, body: { messages: [{ id: 'wamid.LATE' }] }, delayMs: 3000 }, '30', null],
    ['a dropped connection', { drop: true }, '30', null],
  ];
  test.for(UNAVAILABLE)(
    'answers %s with 503 provider_unavailable and Retry-After, and records it failed',
    async ([, reply, retryAfter, code], { server, wa, messageCount, newest }) => {
      const before = await messageCount();
      graph.replyOnce(reply);
      const response = await server.http.post(
        '/api/workspace/v1/chat/templates/send',
        { channelId: wa.waChannelId, ...ORDER },
        { headers: { 'x-api-key': wa.ownerKey } },
      );
      expect(response.status).toBe(503);
      expect(response.data).toEqual({
        success: false,
        error: 'provider_unavailable',
        message: expect.stringMatching(/^WhatsApp Cloud API .* while sending the template message/),
      });
      expect(response.headers['retry-after']).toBe(retryAfter);
      expectDeclaredHeaders('POST', '/api/workspace/v1/chat/templates/send', response);
      expect(await messageCount()).toBe(before + 1);
      expect(await newest(1)).toEqual([{ status: 'failed', error_code: code, reason: null }]);
    },
  );

  test(
    'a message Meta accepted whose answer cannot be recorded: 503 naming the msgid, with the headers of every 503; ' +
      'the message ends failed, outcome_unknown',
    async ({ server, wa, send, messageCount }) => {
      const taken = (await send()).data.msgid;
      const before = await messageCount();
      // Meta hands back an id we already hold: recording its answer fails after the message went out.
      graph.replyOnce({ status: 200, body: { messaging_product: 'whatsapp', messages: [{ id: taken }] } });
      const params = { channelId: wa.waChannelId, ...ORDER, to: '15550009999' };
      const headers = { 'x-api-key': wa.ownerKey, 'idempotency-key': `unrecorded-${taken}` };
      const response = await server.http.post('/api/workspace/v1/chat/templates/send', params, { headers });
      expect(response.status).toBe(503);
      // Unlike other 5xx, this reply is kept for its Idempotency-Key: an automatic retry must not send the message
      // again.
      const sent = sends();
      const retried = await server.http.post('/api/workspace/v1/chat/templates/send', params, { headers });
      expect([retried.status, retried.headers['idempotent-replayed'], retried.data]).toEqual([
        503,
        'true',
        response.data,
      ]);
      expect(sends()).toBe(sent);
      expect(response.data).toEqual({
        success: false,
        error: 'service_unavailable',
        message: expect.stringMatching(/^Message sbm\.[0-9a-f]{32} was queued but handing it to the provider/),
      });
      expect(response.data.message).toMatch(/Do not resend it without checking/);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      for (const reply of [response, retried])
        expectDeclaredHeaders('POST', '/api/workspace/v1/chat/templates/send', reply);
      // The row existed before the call: the dispatcher ends it as after a crash mid-send.
      expect(await messageCount()).toBe(before + 1);
      const msgid = (response.data.message as string).split(' ')[1];
      await expect
        .poll(
          async () =>
            (await sql(server.databaseUrl, 'select status, reason, "to" from messages where msgid = $1', [msgid]))[0],
          { timeout: 20_000, interval: 200 },
        )
        .toEqual({ status: 'failed', reason: 'outcome_unknown', to: '15550009999' });
    },
  );

  test('the sandbox channel beside it still sends through the sandbox, never through Meta', async ({ server, wa }) => {
    const before = graph.requests.length;
    const reply = await server.client(wa.ownerKey).workspace.chat.templates.send({
      channelId: wa.sandboxChannelId,
      to: '15550001234',
      templateName: 'hello',
      variables: 'Ada',
    });
    expect(reply.data.msgid).toMatch(/^wamid\.[A-Za-z0-9_-]{24}$/);
    expect(graph.requests.length).toBe(before);
  });
});
