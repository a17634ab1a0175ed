import { describe, expect } from 'vitest';
import { expectError, expectInvalid } from '../helpers/expect.js';
import type { TestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';
import { writerKeys } from '../workspace/writers.js';

type ManageParams = Parameters<ReturnType<TestServer['client']>['workspace']['contacts']['manage']>[0];

const test = base
  .extend('nextKey', { scope: 'file' }, ({ server, acme }) => writerKeys(server, acme))
  .extend(
    'manage',
    ({ server, nextKey }) =>
      (params: ManageParams, key = nextKey()) =>
        server.client(key).workspace.contacts.manage(params),
  )
  /** The owner writes to the second channel, where `Tier` is required. */
  .extend(
    'manageSecond',
    ({ server, acme }) =>
      (params: Omit<ManageParams, 'channelId'>) =>
        server
          .client(acme.ownerKey)
          .workspace.contacts.manage({ ...params, channelId: acme.secondChannelId } as ManageParams),
  );

/** contacts/manage checks `customFields` against the channel's definitions: name, type, options, isRequired. */
describe('workspace contacts/manage custom fields', () => {
  // Acme's main channel has Age (number) and Plan (select: free, pro); add one field of every other type, and a
  // required one on the second channel.
  test.beforeAll(async ({ server, acme }) => {
    await server.seed({
      customFields: [
        { channel: acme.mainChannelId, name: 'Note', type: 'text', displayOrder: 3 },
        { channel: acme.mainChannelId, name: 'Birthday', type: 'date', displayOrder: 4 },
        { channel: acme.mainChannelId, name: 'Opted in', type: 'boolean', displayOrder: 5 },
        { channel: acme.secondChannelId, name: 'Tier', type: 'select', options: ['gold', 'silver'], isRequired: true },
      ],
    });
  });

  test('stores a value of each type and shows it as contacts/list does', async ({ server, acme, manage }) => {
    const customFields = {
      Note: 'Prefers email.\nNever call.',
      Age: 41.5,
      Birthday: '1914-11-09',
      'Opted in': true,
      Plan: 'free',
    };
    const reply = await manage({ phone: '15550200001', name: 'Typed Fields', customFields });
    expect(reply.data.customFields).toEqual(customFields);
    const listed = await server.client(acme.memberKey).workspace.contacts.list({ search: 'Typed Fields' });
    expect(listed.data[0]!.customFields).toEqual(customFields);
  });

  test.for([
    ['Note', 42, 'must be a string \\(a text field\\)'],
    ['Note', 'x'.repeat(1001), 'must be at most 1000 characters'],
    ['Age', '41', 'must be a number \\(a number field\\)'],
    ['Birthday', '1914-13-09', 'must be a date written YYYY-MM-DD'],
    ['Birthday', '09/11/1914', 'must be a date written YYYY-MM-DD'],
    ['Opted in', 'yes', 'must be true or false \\(a boolean field\\)'],
    ['Plan', 'enterprise', 'must be one of free, pro'],
  ] as const)('refuses %s = %j with a 400 naming customFields.%s', async ([name, value, why], { manage }) => {
    const escaped = name.replace(' ', '\\s');
    await expectInvalid(
      manage({ phone: '15550200001', customFields: { [name]: value } }),
      `customFields\\.${escaped}`,
      why,
    );
  });

  test('refuses a name that is not a custom field of this channel (names are exact)', async ({ manage }) => {
    await expectInvalid(
      manage({ phone: '15550200001', customFields: { age: 3 } }),
      'customFields\\.age',
      'is not a custom field of this channel',
    );
    // Tier belongs to the second channel.
    await expectInvalid(
      manage({ phone: '15550200001', customFields: { Tier: 'gold' } }),
      'customFields\\.Tier',
      'is not a custom field of this channel',
    );
  });

  test('merges on update: given values replace, null clears, the others stay', async ({ manage }) => {
    const reply = await manage({ phone: '15550200001', customFields: { Age: 42, Note: null } });
    expect(reply.data.customFields).toEqual({ Age: 42, Birthday: '1914-11-09', 'Opted in': true, Plan: 'free' });
  });

  test('a required field must be given on creation and cannot be cleared later', async ({ manageSecond }) => {
    const missing = await expectError(
      manageSecond({ phone: '15550200002', name: 'Needs Tier', customFields: {} }),
      400,
      'invalid_request',
    );
    expect(missing.message).toBe('customFields.Tier: is required');
    await expectInvalid(
      manageSecond({ phone: '15550200002', name: 'Needs Tier', customFields: { Tier: null } }),
      'customFields\\.Tier',
      'is required and cannot be cleared',
    );
    const created = await manageSecond({ phone: '15550200002', name: 'Needs Tier', customFields: { Tier: 'gold' } });
    expect(created.data.customFields).toEqual({ Tier: 'gold' });
    // An update need not repeat it, nor may it clear it.
    expect((await manageSecond({ phone: '15550200002', status: 'blocked' })).data.customFields).toEqual({
      Tier: 'gold',
    });
    await expectInvalid(
      manageSecond({ phone: '15550200002', customFields: { Tier: null } }),
      'customFields\\.Tier',
      'is required and cannot be cleared',
    );
    // A contact from before the field was required can still be updated without it.
    expect((await manageSecond({ phone: '358400000006', status: 'active' })).data.customFields).toEqual({});
  });
});
