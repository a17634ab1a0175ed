import { createClient } from '@switchboard/client';

const IDEMPOTENCY_HEADER = 'Idempotency-Key';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, ok, startStandIn, type Reply, type SeenRequest, type StandIn } from './stand-in.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ORDER = { to: '15550000001', templateName: 'order_update' };
const keyOf = (request: SeenRequest) => request.headers[IDEMPOTENCY_HEADER.toLowerCase()];

describe('SDK Idempotency-Key', () => {
  let stand: StandIn | undefined;
  afterEach(() => stand?.close());

  const serve = async (script: (request: SeenRequest, index: number) => Reply) => {
    stand = await startStandIn(script);
    return stand;
  };

  it('sends a fresh UUID on every write call and none on reads', async () => {
    const server = await serve(() => ok({}));
    const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test' });
    await sb.workspace.chat.templates.send(ORDER);
    await sb.workspace.chat.templates.send(ORDER);
    await sb.platform.tickets.manage({ platformId: 'p1', ticketId: 'T-1', status: 'closed' });
    await sb.workspace.contacts.list();
    const keys = server.requests.map(keyOf);
    expect(keys.slice(0, 3)).toEqual([
      expect.stringMatching(UUID),
      expect.stringMatching(UUID),
      expect.stringMatching(UUID),
    ]);
    expect(new Set(keys.slice(0, 3)).size).toBe(3);
    expect(keys[3]).toBeUndefined();
  });

  it('sends the caller’s own key', async () => {
    const server = await serve(() => ok({}));
    await createClient({ baseUrl: server.url, apiKey: 'sk_test' }).workspace.labels.manage(
      { name: 'vip' },
      { idempotencyKey: 'order-4711' },
    );
    expect(keyOf(server.requests[0]!)).toBe('order-4711');
  });

  it('repeats a write after a dropped connection, a 503 and a 409 in progress, always with the same key', async () => {
    const script: Reply[] = [
      'hang-up',
      failure(503, 'service_unavailable'),
      failure(409, 'idempotency_key_in_progress'),
      ok({ msgid: 'wamid.1' }),
    ];
    const server = await serve((_, i) => script[i]!);
    const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test', retry: { attempts: 4, baseDelayMs: 1 } });
    await expect(sb.workspace.chat.templates.send(ORDER)).resolves.toEqual({
      success: true,
      data: { msgid: 'wamid.1' },
    });
    expect(server.requests).toHaveLength(4);
    expect(new Set(server.requests.map(keyOf))).toEqual(new Set([expect.stringMatching(UUID)]));
  });

  it('does not repeat a write that the server rejected for good', async () => {
    const server = await serve(() => failure(422, 'idempotency_key_reused'));
    const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test', retry: { baseDelayMs: 1 } });
    await expect(sb.workspace.chat.templates.send(ORDER)).rejects.toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
    });
    expect(server.requests).toHaveLength(1);
  });
});
