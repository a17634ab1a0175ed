import { describe, expect } from 'vitest';
import { queryOf } from '../helpers/query.js';
import { test as base } from '../helpers/test.js';
import { WORKSPACE_ENDPOINTS } from './endpoints.js';

const test = base.extend('headers', ({ acme }) => ({ 'X-API-Key': acme.memberKey }));

/**
 * Endpoints whose repeat answers anew: a send is a new message, a create a new note, an ask a new media link
 * (`created`, which must differ), and the times that move with them (`touched`, as the same contact updated again).
 */
const REPEATS: Record<string, { created?: string; touched: string[] }> = {
  'chat/templates/send': { created: 'msgid', touched: [] },
  'chat/message/send': { created: 'msgid', touched: [] },
  'sandbox/receive': { created: 'msgid', touched: [] },
  'contacts/manage': { touched: ['updatedAt'] },
  'chat/notes/manage': { created: 'id', touched: ['createdAt'] },
  'chat/media/get': { created: 'url', touched: ['expiresAt'] },
};

/** Every endpoint answers GET with its parameters in the query string exactly as POST with a JSON body. */
describe('GET = POST on every workspace endpoint', () => {
  test.for(WORKSPACE_ENDPOINTS)('$name', async (endpoint, { server, acme, headers }) => {
    const params = endpoint.params(acme);
    const query = queryOf(params);
    const post = await server.http.post(endpoint.path, params, { headers });
    const get = await server.http.get(`${endpoint.path}${query ? `?${query}` : ''}`, { headers });
    expect(post.status).toBe(200);
    expect(get.status).toBe(200);
    const repeat = REPEATS[endpoint.name];
    if (repeat) {
      // Each call answers anew in these fields: `created` must differ, the others may.
      if (repeat.created) expect(get.data.data[repeat.created]).not.toBe(post.data.data[repeat.created]);
      const fresh = Object.fromEntries([repeat.created, ...repeat.touched].flatMap((f) => (f ? [[f, 'x']] : [])));
      expect({ ...get.data, data: { ...get.data.data, ...fresh } }).toEqual({
        ...post.data,
        data: { ...post.data.data, ...fresh },
      });
    } else if (endpoint.name === 'chat/message/read') {
      // The POST marked Ada's question (and what she sent before) read; the GET finds it read and marks nothing.
      expect(post.data.data.markedRead).toBeGreaterThan(0);
      expect(get.data).toEqual({ ...post.data, data: { ...post.data.data, markedRead: 0 } });
    } else if (endpoint.name === 'labels/manage') {
      // The GET repeats the POST's upsert: the same label, now reported as updated.
      expect(get.data).toEqual({ ...post.data, message: 'Label updated successfully' });
    } else {
      expect(get.data).toEqual(post.data);
    }
  });

  test('coerces query-string numbers: contacts/list ?page=2&limit=1', async ({ server, headers }) => {
    const path = WORKSPACE_ENDPOINTS.find((e) => e.name === 'contacts/list')!.path;
    const get = await server.http.get(`${path}?page=2&limit=1`, { headers });
    const post = await server.http.post(path, { page: 2, limit: 1 }, { headers });
    expect(get.data).toEqual(post.data);
    expect(get.data.pagination).toEqual({ page: 2, limit: 1, total: 3, pages: 3 });
    expect(get.data.data).toHaveLength(1);
  });

  test('accepts repeated query keys as the array form of variables', async ({ server, headers }) => {
    const path = WORKSPACE_ENDPOINTS.find((e) => e.name === 'chat/templates/send')!.path;
    const get = await server.http.get(
      `${path}?to=15550000001&templateName=order_update&variables=Ada%2C%20Jr.&variables=A-1001`,
      { headers },
    );
    expect(get.status).toBe(200);
    expect(get.data.data).toMatchObject({ to: '15550000001', templateName: 'order_update', status: 'accepted' });
  });
});
