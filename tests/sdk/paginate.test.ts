import { createClient, paginate } from '@switchboard/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ok, startStandIn, type StandIn } from './stand-in.js';

/** 7 contacts served 3 per page, like contacts/list does. */
const ALL = Array.from({ length: 7 }, (_, i) => ({ id: `c${i + 1}`, name: `Contact ${i + 1}` }));

describe('SDK paginate and .all()', () => {
  let stand: StandIn | undefined;
  afterEach(() => stand?.close());

  const pagedServer = async (total = ALL.length) => {
    stand = await startStandIn((request) => {
      const { page = 1, limit = 3 } = request.body as { page?: number; limit?: number };
      const items = ALL.slice(0, total).slice((page - 1) * limit, page * limit);
      return ok(items, { pagination: { page, limit, total, pages: Math.ceil(total / limit) } });
    });
    return createClient({ baseUrl: stand.url, apiKey: 'k' });
  };

  it('yields every item across pages, keeping the other parameters on every request', async () => {
    const sb = await pagedServer();
    const seen: string[] = [];
    for await (const contact of sb.workspace.contacts.list.all({ search: 'con', limit: 3 })) seen.push(contact.id);
    const generic: string[] = [];
    for await (const contact of sb.paginate(sb.workspace.contacts.list, { search: 'con', limit: 3 }))
      generic.push(contact.id);
    expect(seen).toEqual(ALL.map((c) => c.id));
    expect(generic).toEqual(seen);
    expect(stand!.requests.map((r) => r.body)).toEqual(
      [1, 2, 3, 1, 2, 3].map((page) => ({ search: 'con', limit: 3, page })),
    );
  });

  it('fetches lazily: breaking out after the first item costs one request', async () => {
    const sb = await pagedServer();
    for await (const contact of paginate(sb.workspace.contacts.list, { limit: 3 })) {
      expect(contact.id).toBe('c1');
      break;
    }
    expect(stand!.requests).toHaveLength(1);
  });

  it('toArray({ limit }) collects the first items, fetching only the pages needed; iterations start over', async () => {
    const sb = await pagedServer();
    const list = sb.workspace.contacts.list.all({ limit: 3 });
    expect((await list.toArray({ limit: 4 })).map((c) => c.id)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(stand!.requests).toHaveLength(2);
    expect(await list.toArray({ limit: 100 })).toHaveLength(7);
    expect(stand!.requests).toHaveLength(5);
    await expect(list.toArray({ limit: 0 })).rejects.toThrow(RangeError);
    await expect(list.toArray({ limit: 10_001 })).rejects.toThrow(/1 to 10000/);
  });

  it('makes one request for an empty list', async () => {
    const sb = await pagedServer(0);
    expect(await sb.workspace.contacts.list.all().toArray({ limit: 10 })).toEqual([]);
    expect(stand!.requests).toHaveLength(1);
  });

  it('passes the call options to every page: an abort ends the iteration with ApiConnectionError', async () => {
    const sb = await pagedServer();
    const controller = new AbortController();
    const seen: string[] = [];
    const iterate = async () => {
      for await (const contact of sb.workspace.contacts.list.all({ limit: 3 }, { signal: controller.signal })) {
        seen.push(contact.id);
        if (seen.length === 3) controller.abort();
      }
    };
    await expect(iterate()).rejects.toMatchObject({ name: 'ApiConnectionError', code: 'aborted' });
    expect(seen).toEqual(['c1', 'c2', 'c3']);
  });

  it('has .all() on paginated lists only', async () => {
    const sb = await pagedServer();
    expect(typeof sb.platform.tickets.list.all).toBe('function');
    expect(typeof sb.platform.webhooks.deliveries.all).toBe('function');
    expect('all' in sb.workspace.labels.list).toBe(false);
  });
});
