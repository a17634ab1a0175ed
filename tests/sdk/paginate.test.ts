import { createClient, paginate } from '@switchboard/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ok, startStandIn, type StandIn } from './stand-in.js';

/** 7 contacts served 3 per page, like contacts/list does. */
const ALL = Array.from({ length: 7 }, (_, i) => ({ id: `c${i + 1}`, name: `Contact ${i + 1}` }));

describe('SDK paginate', () => {
  let stand: StandIn | undefined;
  afterEach(() => stand?.close());

  const pagedServer = async (total = ALL.length) => {
    stand = await startStandIn((request) => {
      const { page = 1, limit = 3 } = request.body as { page?: number; limit?: number };
      const items = ALL.slice(0, total).slice((page - 1) * limit, page * limit);
      return ok(items, { pagination: { page, limit, total, pages: Math.ceil(total / limit) } });
    });
    return stand;
  };

  it('yields every item across pages, keeping the other parameters on every request', async () => {
    const server = await pagedServer();
    const sb = createClient({ baseUrl: server.url, apiKey: 'k' });
    const seen: string[] = [];
    for await (const contact of sb.paginate(sb.workspace.contacts.list, { search: 'con', limit: 3 }))
      seen.push(contact.id);
    expect(seen).toEqual(ALL.map((c) => c.id));
    expect(server.requests.map((r) => r.body)).toEqual([
      { search: 'con', limit: 3, page: 1 },
      { search: 'con', limit: 3, page: 2 },
      { search: 'con', limit: 3, page: 3 },
    ]);
  });

  it('fetches lazily: breaking out after the first item costs one request', async () => {
    const server = await pagedServer();
    const sb = createClient({ baseUrl: server.url, apiKey: 'k' });
    for await (const contact of paginate(sb.workspace.contacts.list, { limit: 3 })) {
      expect(contact.id).toBe('c1');
      break;
    }
    expect(server.requests).toHaveLength(1);
  });

  it('makes one request for an empty list', async () => {
    const server = await pagedServer(0);
    const sb = createClient({ baseUrl: server.url, apiKey: 'k' });
    const items = [];
    for await (const contact of sb.paginate(sb.workspace.contacts.list)) items.push(contact);
    expect(items).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
