import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { graphError } from '../helpers/graph-stand-in.js';
import { whatsAppBroadcasts } from '../broadcasts/whatsapp-broadcasts.js';

/**
 * Meta's throughput limits (130429, 131056; issue #41): a queued send Meta throttles goes back to the queue and is
 * sent later instead of failing; one throttled at every attempt fails after the last, its error retryable.
 */
const { account, graph, test, sendsTo, statusEvents } = await whatsAppBroadcasts(['message.status.updated']);

const sendPath = `/v23.0/${account.phoneNumberId}/messages`;
/** Graph's answer to the sends to one phone: Meta's throughput error. */
const throttle = (to: string, code: number) => ({
  match: (r: { method: string; path: string; body: unknown }) =>
    r.method === 'POST' && r.path === sendPath && (r.body as { to?: string }).to === to,
  status: code === 130429 ? 429 : 400,
  body: graphError(code, `(#${code}) Rate limit hit`),
});

describe('a queued send Meta throttles', { timeout: 90_000 }, () => {
  test('130429 once: queued again, then sent; no failure reported', async ({ server, schedule, untilStatus }) => {
    const to = '15592000001';
    graph.replyOnce(throttle(to, 130429));
    const msgid = await schedule(to, 'order_update', ['Ada', 'A-1'], 1);
    const sent = await untilStatus(msgid, 'accepted');
    expect(sent.error).toBeUndefined();
    expect(sendsTo(new Set([to]))).toHaveLength(2);
    const [row] = await sql<{ attempts: number }>(
      server.databaseUrl,
      'select attempts from messages where msgid = $1',
      [msgid],
    );
    expect(row!.attempts).toBe(1);
    await server.untilIdle();
    expect(statusEvents(msgid).map((event) => event.status)).toEqual(['accepted']);
  });

  test('131056 at every attempt: failed after the last, its error retryable', async ({
    server,
    schedule,
    untilStatus,
  }) => {
    const to = '15592000002';
    graph.replyAlways(throttle(to, 131056));
    const msgid = await schedule(to, 'order_update', ['Grace', 'A-2'], 1);
    const failed = await untilStatus(msgid, 'failed');
    expect(failed.error).toEqual({ code: 131056, title: expect.stringContaining('code 131056'), retryable: true });
    expect(sendsTo(new Set([to]))).toHaveLength(5);
    // The event is delivered by a job: once the worker is idle it has arrived.
    await server.untilIdle();
    expect(statusEvents(msgid).map((event) => event.status)).toEqual(['failed']);
  });
});
