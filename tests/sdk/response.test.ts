import { createClient, SwitchboardError } from '@switchboard/client';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, ok, startStandIn, type StandIn } from './stand-in.js';

const RATE_LIMIT = { 'ratelimit-limit': '120', 'ratelimit-remaining': '117', 'ratelimit-reset': '42' };

describe('SDK response metadata and per-endpoint error guards', () => {
  let stand: StandIn | undefined;
  afterEach(() => stand?.close());

  it('gives the reply’s metadata with .withResponse(), from the same single request', async () => {
    stand = await startStandIn(() => ({
      status: 200,
      body: { success: true, data: [{ id: 'ch1' }], total: 1 },
      headers: { ...RATE_LIMIT, 'idempotent-replayed': 'true' },
    }));
    const sb = createClient({ baseUrl: stand.url, apiKey: 'k' });
    const { data, response } = await sb.workspace.channels.list().withResponse();
    expect(data).toEqual({ success: true, data: [{ id: 'ch1' }], total: 1 });
    expect(response).toMatchObject({
      requestId: 'req-1',
      status: 200,
      rateLimit: { limit: 120, remaining: 117, resetSeconds: 42 },
      idempotentReplayed: true,
    });
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const pending = sb.workspace.channels.list();
    const [awaited, withResponse] = await Promise.all([pending, pending.withResponse()]);
    expect(awaited).toEqual(withResponse.data);
    expect(stand.requests).toHaveLength(2);
  });

  it('leaves rateLimit out when the reply has no rate limit headers, and replayed false', async () => {
    stand = await startStandIn(() => ok({ id: 'p1' }));
    const { response } = await createClient({ baseUrl: stand.url, apiKey: 'k' }).platform.id.list().withResponse();
    expect(response).toEqual({
      requestId: 'req-1',
      status: 200,
      headers: expect.any(Object),
      idempotentReplayed: false,
    });
  });

  it('puts the same metadata on a failure as `error.response`, and rejects withResponse() with the error', async () => {
    stand = await startStandIn(() => failure(404, 'ticket_not_found', RATE_LIMIT));
    const sb = createClient({ baseUrl: stand.url, apiKey: 'k' });
    const error = await sb.platform.tickets
      .get({ platformId: 'p', ticketId: 'T-1' })
      .withResponse()
      .catch((e) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect((error as SwitchboardError).response).toMatchObject({
      requestId: 'req-1',
      status: 404,
      rateLimit: { limit: 120, remaining: 117, resetSeconds: 42 },
    });
  });

  it('narrows an error to its endpoint with the method’s isError guard, for that method’s errors only', async () => {
    stand = await startStandIn(() => failure(404, 'ticket_not_found'));
    const sb = createClient({ baseUrl: stand.url, apiKey: 'k' });
    const error: unknown = await sb.platform.tickets.get({ platformId: 'p', ticketId: 'T-1' }).catch((e) => e);
    expect(sb.platform.tickets.get.isError(error)).toBe(true);
    expect(sb.platform.tickets.manage.isError(error)).toBe(false);
    expect(sb.workspace.contacts.get.isError(new Error('not ours'))).toBe(false);
    if (!sb.platform.tickets.get.isError(error)) throw new Error('the guard refused its own error');
    expect(error.operation).toBe('platform.tickets.get');
    let handled: string;
    switch (error.code) {
      case 'ticket_not_found':
        handled = 'show "no such ticket"';
        break;
      default:
        handled = error.code;
    }
    expect(handled).toBe('show "no such ticket"');
  });
});
