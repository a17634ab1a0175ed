import { createClient, SwitchboardError } from '@switchboard/client';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, ok, startStandIn, type Reply, type SeenRequest, type StandIn } from './stand-in.js';

const LABELS = '/api/workspace/v1/labels/manage';
const CONTACTS = '/api/workspace/v1/contacts/list';
const SEND = '/api/workspace/v1/chat/templates/send';

describe('SDK retry', () => {
  let stand: StandIn | undefined;
  afterEach(() => stand?.close());

  const serve = async (script: (request: SeenRequest, index: number) => Reply) => {
    stand = await startStandIn(script);
    return stand;
  };
  const caught = (call: Promise<unknown>) =>
    call.then(
      () => expect.unreachable('call succeeded'),
      (e: unknown) => e as SwitchboardError,
    );

  it('waits out Retry-After on a 429 and repeats even a write (the limiter refused it before it ran)', async () => {
    const server = await serve((_, i) =>
      i === 0 ? failure(429, 'rate_limited', { 'retry-after': '1' }) : ok({ id: 'l1', name: 'vip' }),
    );
    const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test', retry: true });
    const reply = await sb.workspace.labels.manage({ name: 'vip' });
    expect(reply).toEqual({ success: true, data: { id: 'l1', name: 'vip' } });
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', LABELS],
      ['POST', LABELS],
    ]);
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(990);
    expect(waited).toBeLessThan(1500);
    expect(server.requests[1]!.body).toEqual({ name: 'vip' });
  });

  it('retries twice by default; maxRetries sets the count, 0 (or retry: false) turns it off', async () => {
    const server = await serve(() => failure(429, 'rate_limited', { 'retry-after': '0' }));
    const tries = async (options: Parameters<typeof createClient>[0]) => {
      const before = server.requests.length;
      const error = await caught(createClient(options).workspace.contacts.list());
      expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 0 });
      return server.requests.length - before;
    };
    const base = { baseUrl: server.url, apiKey: 'sk_test' };
    expect(await tries(base)).toBe(3);
    expect(await tries({ ...base, maxRetries: 4 })).toBe(5);
    expect(await tries({ ...base, maxRetries: 0 })).toBe(1);
    expect(await tries({ ...base, retry: false })).toBe(1);
    expect(await tries({ ...base, maxRetries: 1, retry: { attempts: 9 } })).toBe(2);
  });

  it('stops waiting for Retry-After when the call’s signal aborts, with the abort’s error', async () => {
    const server = await serve(() => failure(429, 'rate_limited', { 'retry-after': '3' }));
    const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test' });
    const started = performance.now();
    const error = await caught(sb.workspace.contacts.list({}, { signal: AbortSignal.timeout(200) }));
    expect(error).toMatchObject({ name: 'ApiConnectionError', status: 0, code: 'aborted' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up at once when Retry-After is longer than maxDelayMs', async () => {
    const server = await serve(() => failure(429, 'rate_limited', { 'retry-after': '60' }));
    const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test', retry: { maxDelayMs: 5_000 } });
    const started = performance.now();
    const error = await caught(sb.workspace.contacts.list());
    expect(error).toMatchObject({ status: 429, retryAfter: 60 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it('stops after `attempts` tries and throws the last failure', async () => {
    const server = await serve(() => failure(429, 'rate_limited', { 'retry-after': '0' }));
    const error = await caught(
      createClient({ baseUrl: server.url, apiKey: 'sk_test', retry: { attempts: 4 } }).workspace.labels.list(),
    );
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(server.requests).toHaveLength(4);
  });

  it('retries a read after 503 with exponential backoff', async () => {
    const server = await serve((_, i) =>
      i < 2 ? failure(503, 'service_unavailable') : ok([], { pagination: { page: 1, limit: 50, total: 0, pages: 0 } }),
    );
    const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test', retry: { attempts: 3, baseDelayMs: 200 } });
    await expect(sb.workspace.contacts.list({ search: 'ada' })).resolves.toMatchObject({ success: true, data: [] });
    expect(server.requests.map((r) => r.path)).toEqual([CONTACTS, CONTACTS, CONTACTS]);
    const [first, second, third] = server.requests.map((r) => r.at) as [number, number, number];
    // Equal jitter: the n-th wait lies in [base·2^(n-1)/2, base·2^(n-1)].
    expect(second - first).toBeGreaterThanOrEqual(95);
    expect(second - first).toBeLessThan(400);
    expect(third - second).toBeGreaterThanOrEqual(195);
    expect(third - second).toBeLessThan(700);
  });

  it(
    'repeats a write after a 503 or a dropped connection only under its Idempotency-Key ' +
      '(tests/sdk/idempotency.test.ts)',
    async () => {
      const server = await serve((_, i) => (i % 2 === 0 ? failure(503, 'service_unavailable') : 'hang-up'));
      const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test', retry: { attempts: 2, baseDelayMs: 1 } });
      expect(
        await caught(sb.workspace.chat.templates.send({ to: '15550000001', templateName: 'order_update' })),
      ).toMatchObject({ status: 0 });
      expect(server.requests.map((r) => [r.path, r.headers['idempotency-key']])).toEqual([
        [SEND, expect.any(String)],
        [SEND, server.requests[0]!.headers['idempotency-key']],
      ]);
    },
  );

  it('retries a read after a dropped connection', async () => {
    const server = await serve((_, i) => (i === 0 ? 'hang-up' : ok({ id: 'p1' })));
    const sb = createClient({ baseUrl: server.url, apiKey: 'sk_test', retry: { baseDelayMs: 1 } });
    await expect(sb.platform.id.list()).resolves.toEqual({ success: true, data: { id: 'p1' } });
    expect(server.requests).toHaveLength(2);
  });

  it('fails a request that outlives timeoutMs with status 0, and retries it when it is a read', async () => {
    const server = await serve((_, i) => (i < 2 ? 'never' : ok([], { total: 0 })));
    const once = createClient({ baseUrl: server.url, apiKey: 'sk_test', timeoutMs: 100, maxRetries: 0 });
    expect(await caught(once.workspace.automations.list())).toMatchObject({ status: 0, code: 'timeout' });
    const retrying = createClient({
      baseUrl: server.url,
      apiKey: 'sk_test',
      timeoutMs: 100,
      retry: { baseDelayMs: 1 },
    });
    await expect(retrying.workspace.automations.list()).resolves.toEqual({ success: true, data: [], total: 0 });
    expect(server.requests).toHaveLength(3);
  });
});
