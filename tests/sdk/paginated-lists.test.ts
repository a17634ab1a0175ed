import type { PageIterable, SwitchboardClient } from '@switchboard/client';
import {
  contract,
  contractEndpoints,
  EXAMPLE_IDS,
  isPaginated,
  paramsObject,
  type ExampleIdName,
} from '@switchboard/contract';
import { describe, expect } from 'vitest';
import { demoVariables, demoWebhookEndpointId, singleChannelDemo } from '../export/demo-ids.js';
import { test } from '../helpers/test.js';
import { receiveText } from '../automations/automations-fixture.js';

type ListMethod = ((params: object) => Promise<{ data: object[]; pagination: { total: number } }>) & {
  all(params: object): PageIterable<object>;
};

/** Every paginated endpoint of the contract (its reply carries `pagination`): new lists are covered as they land. */
const LISTS = contractEndpoints(contract).filter(({ post }) => isPaginated(post));

/**
 * A conversation is addressed by `contactId` or `phone`, one of them required by a rule the schema's shape does not
 * show (chat/notes/list): the example's address is kept like a required parameter.
 */
const ADDRESS = new Set(['contactId', 'phone']);

/** The example's required parameters with the seeded demo's ids in place of the sample ids. */
function requiredParams(endpoint: (typeof LISTS)[number], ids: Record<string, string>): Record<string, unknown> {
  const shape = paramsObject(endpoint.post.body!)!.shape as Record<string, { isOptional(): boolean }>;
  const sampleName = (value: unknown) =>
    (Object.keys(EXAMPLE_IDS) as ExampleIdName[]).find((name) => EXAMPLE_IDS[name] === value);
  return Object.fromEntries(
    Object.entries(endpoint.post.metadata.example)
      .filter(([name]) => !shape[name]!.isOptional() || ADDRESS.has(name))
      .map(([name, value]) => [name, ids[sampleName(value) ?? ''] ?? value]),
  );
}

/** A list item's identity: lists key their items by `id`, messages by `msgid`, conversations by `contactId`. */
const keyOf = (item: object) => {
  const { id, msgid, contactId } = item as Record<string, unknown>;
  return id ?? msgid ?? contactId;
};

describe('.all() on every paginated endpoint, against the seeded demo', () => {
  let ids: Record<string, string>;
  let sb: SwitchboardClient;

  test.beforeAll(async ({ server }) => {
    const variables = demoVariables(server.baseUrl, await server.seed(singleChannelDemo));
    sb = server.client(variables.apiKey);
    ids = { ...variables, webhookEndpointId: await demoWebhookEndpointId(server, variables) };
    // Two closed tickets: two deliveries in the endpoint's log.
    for (const title of ['First', 'Second']) {
      const { platformId } = variables;
      const created = await sb.platform.tickets.manage({
        platformId,
        email: 'pat@example.com',
        title,
        description: 'x',
      });
      await sb.platform.tickets.manage({ platformId, ticketId: created.data.id, status: 'closed' });
    }
    // A note where chat/notes/list's example reads: on the contact chat/notes/manage's example writes on.
    const note = contract.workspace.chat.notes.manage.post.metadata.example as { phone: string; text: string };
    await sb.workspace.chat.notes.manage({ ...note, channelId: variables.channelId, action: 'create' });
    // Two questions about hours: two runs of the demo's "Opening hours" automation.
    for (const from of ['15550000011', '15550000012'])
      await receiveText(server, variables.channelId, from, 'Your opening hours?');
    await server.untilIdle();
  });

  test('covers the lists of the contract', () => {
    expect(LISTS.map(({ at }) => at.join('.'))).toEqual(
      expect.arrayContaining([
        'workspace.contacts.list',
        'platform.tickets.list',
        'platform.users.list',
        'platform.webhooks.deliveries',
      ]),
    );
  });

  test.for(LISTS.map(({ at }, index) => ({ name: at.join('.'), index })))(
    '$name: one item per page walks the same items as one big page',
    async ({ index }) => {
      const endpoint = LISTS[index]!;
      const method = endpoint.at.reduce<unknown>(
        (branch, name) => (branch as Record<string, unknown>)[name],
        sb,
      ) as ListMethod;
      const params = requiredParams(endpoint, ids);
      const walked = await method.all({ ...params, limit: 1 }).toArray({ limit: 1_000 });
      const page = await method({ ...params, limit: 100 });
      expect(page.pagination.total).toBeGreaterThanOrEqual(endpoint.at.includes('deliveries') ? 2 : 1);
      expect(walked.map(keyOf)).toEqual(page.data.map(keyOf));
      expect(walked.map(keyOf).every((key) => typeof key === 'string')).toBe(true);
    },
  );
});
