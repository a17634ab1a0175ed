import { describe, expect } from 'vitest';
import { expectError, expectForbidden, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { CHANNEL_SCOPED, type WorkspaceEndpoint } from '../workspace/endpoints.js';

/** Calls `endpoint` with `apiKey` and parameters that suit Acme's main channel, plus `extra`. */
const test = base.extend(
  'call',
  ({ server, acme }) =>
    (endpoint: WorkspaceEndpoint, apiKey: string, extra: Record<string, unknown> = {}) =>
      endpoint.call(server.client(apiKey), { ...endpoint.params(acme), ...extra }),
);

/** The channel rule (docs/api.md "Channels") on every channel-scoped workspace endpoint. */
describe('channel rules', () => {
  describe.each(CHANNEL_SCOPED)('$name', (endpoint) => {
    test('picks the only channel when channelId is omitted', async ({ acme, call }) => {
      const auto = (await call(endpoint, acme.memberKey)) as { success: boolean; data: unknown };
      const explicit = (await call(endpoint, acme.memberKey, { channelId: acme.mainChannelId })) as { data: unknown };
      expect(auto.success).toBe(true);
      if (endpoint.rateClass === 'api_read') expect(auto.data).toEqual(explicit.data);
      if (endpoint.name === 'labels/manage') expect(auto.data).toMatchObject({ channelId: acme.mainChannelId });
    });

    test('needs channelId when the key has several channels: 400 naming channelId', async ({ acme, call }) => {
      await expectInvalid(
        call(endpoint, acme.ownerKey),
        'channelId',
        'is required: this key is authorized for 2 channels',
      );
    });

    test('uses the given channel when the key has several', async ({ acme, call }) => {
      const reply = (await call(endpoint, acme.ownerKey, { channelId: acme.mainChannelId })) as { success: boolean };
      expect(reply.success).toBe(true);
    });

    test('404 no_channel when the key has no channel', async ({ acme, call }) => {
      await expectError(call(endpoint, acme.lonelyKey), 404, 'no_channel', /^No channel found for this user\.$/);
    });

    test('403 for a channel of the same platform the key is not authorized for', async ({ acme, call }) => {
      await expectForbidden(
        call(endpoint, acme.memberKey, { channelId: acme.secondChannelId }),
        'You are not authorized for this channel.',
      );
      await expectForbidden(call(endpoint, acme.lonelyKey, { channelId: acme.mainChannelId }));
    });

    test('400 for an empty channelId', async ({ acme, call }) => {
      await expectInvalid(call(endpoint, acme.memberKey, { channelId: '' }), 'channelId', 'must not be empty');
    });
  });
});
