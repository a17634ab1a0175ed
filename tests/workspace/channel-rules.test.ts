import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectForbidden, expectInvalid } from '../helpers/expect.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHANNEL_SCOPED } from './endpoints.js';

/** SPEC rule 4 on every channel-scoped workspace endpoint. */
describe('channel rules', () => {
  let server: TestServer;
  let acme: Tenant;

  beforeAll(async () => {
    server = await startTestServer();
    acme = await createTenant(server, 'Acme');
  });
  afterAll(() => server?.close());

  describe.each(CHANNEL_SCOPED)('$name', (endpoint) => {
    const call = (apiKey: string, extra: Record<string, unknown> = {}) =>
      endpoint.call(server.client(apiKey), { ...endpoint.params(acme), ...extra });

    it('picks the only channel when channelId is omitted', async () => {
      const auto = (await call(acme.memberKey)) as { success: boolean; data: unknown };
      const explicit = (await call(acme.memberKey, { channelId: acme.mainChannelId })) as { data: unknown };
      expect(auto.success).toBe(true);
      if (endpoint.rateClass === 'api_read') expect(auto.data).toEqual(explicit.data);
      if (endpoint.name === 'labels/manage') expect(auto.data).toMatchObject({ channelId: acme.mainChannelId });
    });

    it('needs channelId when the key has several channels: 400 naming channelId', async () => {
      await expectInvalid(call(acme.ownerKey), 'channelId', 'is required: this key is authorized for 2 channels');
    });

    it('uses the given channel when the key has several', async () => {
      const reply = (await call(acme.ownerKey, { channelId: acme.mainChannelId })) as { success: boolean };
      expect(reply.success).toBe(true);
    });

    it('404 no_channel when the key has no channel', async () => {
      await expectError(call(acme.lonelyKey), 404, 'no_channel', /^No channel found for this user\.$/);
    });

    it('403 for a channel of the same platform the key is not authorized for', async () => {
      await expectForbidden(call(acme.memberKey, { channelId: acme.secondChannelId }), 'You are not authorized for this channel.');
      await expectForbidden(call(acme.lonelyKey, { channelId: acme.mainChannelId }));
    });

    it('400 for an empty channelId', async () => {
      await expectInvalid(call(acme.memberKey, { channelId: '' }), 'channelId', 'must not be empty');
    });
  });
});
