import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import type { TestServer } from '../helpers/server.js';
import { expectDeclaredHeaders } from '../export/declared-headers.js';
import { test as base } from '../helpers/test.js';

type SendParams = Parameters<ReturnType<TestServer['client']>['workspace']['chat']['templates']['send']>[0];

const test = base
  .extend(
    'send',
    ({ server, acme }) =>
      (params: SendParams, apiKey = acme.memberKey) =>
        server.client(apiKey).workspace.chat.templates.send(params),
  )
  .extend(
    'recorded',
    ({ server }) =>
      async (msgid: string) =>
        (
          await sql(
            server.databaseUrl,
            `select channel_id, direction, type, status, "to", template_name, language, variables, provider from ` +
              `messages where msgid = $1`,
            [msgid],
          )
        )[0],
  );

describe('workspace chat/templates/send', () => {
  test.beforeAll(async ({ server, acme }) => {
    await sql(
      server.databaseUrl,
      `insert into templates (channel_id, name, category, language, status, body, variable_count) values
        ($1, 'greeting', 'MARKETING', 'en_US', 'approved', 'Hello {{1}}', 1), ($1, 'greeting', 'MARKETING', 'es_ES',
          'approved', 'Hola {{1}}', 1),
        ($1, 'ping', 'UTILITY', 'en_US', 'approved', 'Ping', 0)`,
      [acme.mainChannelId],
    );
  });

  test('queues the message, records it and replies with the provider’s msgid', async ({ acme, send, recorded }) => {
    const reply = await send({ to: '+1 (555) 000-0001', templateName: 'order_update', variables: 'Ada, A-1001' });
    expect(reply).toEqual({
      success: true,
      message: 'Template message queued',
      data: {
        msgid: expect.stringMatching(/^wamid\.[A-Za-z0-9_-]{24}$/),
        status: 'accepted',
        to: '15550000001',
        templateName: 'order_update',
      },
    });
    expect(await recorded(reply.data.msgid)).toEqual({
      channel_id: acme.mainChannelId,
      direction: 'outbound',
      type: 'template',
      status: 'accepted',
      to: '15550000001',
      template_name: 'order_update',
      language: 'en_US',
      variables: ['Ada', 'A-1001'],
      provider: 'sandbox',
    });
  });

  test('takes variables as an array too, commas and all, and none for a template without placeholders', async ({
    send,
    recorded,
  }) => {
    const reply = await send({ to: '15550000002', templateName: 'order_update', variables: ['Hopper, Grace', 'A-2'] });
    expect((await recorded(reply.data.msgid))!.variables).toEqual(['Hopper, Grace', 'A-2']);
    const ping = await send({ to: '15550000002', templateName: 'ping' });
    expect((await recorded(ping.data.msgid))!.variables).toEqual([]);
    expect((await send({ to: '15550000002', templateName: 'ping', variables: '' })).success).toBe(true);
  });

  test('picks the language asked for, and asks for one when the name exists in several', async ({ send, recorded }) => {
    const spanish = await send({ to: '15550000003', templateName: 'greeting', language: 'es_ES', variables: 'Ana' });
    expect((await recorded(spanish.data.msgid))!.language).toBe('es_ES');
    await expectInvalid(
      send({ to: '15550000003', templateName: 'greeting', variables: 'Ana' }),
      'language',
      'is required: template "greeting" exists in en_US, es_ES',
    );
    await expectError(
      send({ to: '15550000003', templateName: 'greeting', language: 'fr_FR', variables: 'Ana' }),
      404,
      'template_not_found',
      /"greeting" in language "fr_FR"/,
    );
    // A language is enough to choose, not required, when the template has only one.
    expect(
      (await send({ to: '15550000003', templateName: 'order_update', language: 'en_US', variables: 'a,b' })).success,
    ).toBe(true);
  });

  test('404 template_not_found for unknown, pending or other-channel templates, and records nothing', async ({
    server,
    acme,
    send,
  }) => {
    const [{ count: before }] = (await sql(server.databaseUrl, 'select count(*)::int as count from messages')) as [
      { count: number },
    ];
    for (const templateName of ['nope', 'promo', 'follow_up', 'ORDER_UPDATE']) {
      await expectError(
        send({ to: '15550000001', templateName, variables: 'x' }, acme.auditorKey),
        404,
        'template_not_found',
        `"${templateName}"`,
      );
    }
    expect(await sql(server.databaseUrl, 'select count(*)::int as count from messages')).toEqual([{ count: before }]);
  });

  test('503 when the channel’s messaging provider is not configured here, and records nothing', async ({
    server,
    acme,
  }) => {
    await sql(server.databaseUrl, `update channels set provider = 'retired_provider' where id = $1`, [
      acme.secondChannelId,
    ]);
    const send = server.client(acme.ownerKey).workspace.chat.templates.send({
      channelId: acme.secondChannelId,
      to: '15550000009',
      templateName: 'follow_up',
      variables: 'Li',
    });
    const error = await expectError(
      send,
      503,
      'service_unavailable',
      'messaging provider "retired_provider" is not configured',
    );
    expectDeclaredHeaders('POST', '/api/workspace/v1/chat/templates/send', error);
    expect(
      await sql(server.databaseUrl, 'select count(*)::int as count from messages where channel_id = $1', [
        acme.secondChannelId,
      ]),
    ).toEqual([{ count: 0 }]);
  });

  test('400 naming variables and how many are expected when the count is wrong', async ({ acme, send }) => {
    const key = acme.auditorKey;
    await expectInvalid(
      send({ to: '15550000001', templateName: 'order_update', variables: 'Ada' }, key),
      'variables',
      'expects 2 values, got 1',
    );
    await expectInvalid(
      send({ to: '15550000001', templateName: 'order_update' }, key),
      'variables',
      'expects 2 values, got 0',
    );
    await expectInvalid(
      send({ to: '15550000001', templateName: 'greeting', language: 'en_US', variables: 'a,b' }, key),
      'variables',
      'expects 1 value, got 2',
    );
    await expectInvalid(
      send({ to: '15550000001', templateName: 'order_update', variables: 'Ada,' }, key),
      'variables',
      'must not contain empty values',
    );
    await expectInvalid(
      send({ to: '15550000001', templateName: 'order_update', variables: 5 as never }, key),
      'variables',
      'comma-separated string or an array',
    );
  });

  test('400 for a missing or malformed recipient and a missing template name', async ({ acme, send }) => {
    const key = acme.ownerKey;
    const channelId = acme.mainChannelId;
    for (const to of ['abc', '1234567', '+1 555', '1234567890123456', '15550000001x']) {
      await expectInvalid(
        send({ channelId, to, templateName: 'order_update', variables: 'a,b' }, key),
        'to',
        'must be 8 to 15 digits with country code',
      );
    }
    await expectInvalid(send({ channelId, templateName: 'order_update' } as never, key), 'to', 'is required');
    await expectInvalid(send({ channelId, to: '15550000001' } as never, key), 'templateName', 'is required');
    await expectInvalid(
      send({ channelId, to: '15550000001', templateName: '' }, key),
      'templateName',
      'must not be empty',
    );
  });
});
