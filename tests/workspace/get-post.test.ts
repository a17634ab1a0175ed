import { describe, expect } from 'vitest';
import { test as base } from '../helpers/test.js';
import { WORKSPACE_ENDPOINTS } from './endpoints.js';

const test = base.extend('headers', ({ acme }) => ({ 'X-API-Key': acme.memberKey }));

/** Every endpoint answers GET with its parameters in the query string exactly as POST with a JSON body. */
describe('GET = POST on every workspace endpoint', () => {
  test.for(WORKSPACE_ENDPOINTS)('$name', async (endpoint, { server, acme, headers }) => {
    const params = endpoint.params(acme);
    const query = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const post = await server.http.post(endpoint.path, params, { headers });
    const get = await server.http.get(`${endpoint.path}${query ? `?${query}` : ''}`, { headers });
    expect(post.status).toBe(200);
    expect(get.status).toBe(200);
    if (endpoint.name === 'chat/templates/send' || endpoint.name === 'chat/message/send') {
      // Two sends are two messages: same reply but for the new msgid.
      expect(get.data.data.msgid).not.toBe(post.data.data.msgid);
      expect({ ...get.data, data: { ...get.data.data, msgid: 'x' } }).toEqual({
        ...post.data,
        data: { ...post.data.data, msgid: 'x' },
      });
    } else if (endpoint.name === 'contacts/manage') {
      // The same update again: the same contact, touched a second time.
      expect({ ...get.data, data: { ...get.data.data, updatedAt: 'x' } }).toEqual({
        ...post.data,
        data: { ...post.data.data, updatedAt: 'x' },
      });
    } else if (endpoint.name === 'chat/message/read') {
      // The POST marked Ada's question (and what she sent before) read; the GET finds it read and marks nothing.
      expect(post.data.data.markedRead).toBeGreaterThan(0);
      expect(get.data).toEqual({ ...post.data, data: { ...post.data.data, markedRead: 0 } });
    } else if (endpoint.name === 'chat/notes/manage') {
      // Two creates are two notes: the same note but for its id and time.
      expect(get.data.data.id).not.toBe(post.data.data.id);
      const same = { id: 'x', createdAt: 'x' };
      expect({ ...get.data, data: { ...get.data.data, ...same } }).toEqual({
        ...post.data,
        data: { ...post.data.data, ...same },
      });
    } else if (endpoint.name === 'chat/media/get') {
      // Each ask is a new link to the same file, with opens of its own.
      expect(get.data.data.url).not.toBe(post.data.data.url);
      const link = { url: 'x', expiresAt: 'x' };
      expect({ ...get.data, data: { ...get.data.data, ...link } }).toEqual({
        ...post.data,
        data: { ...post.data.data, ...link },
      });
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
