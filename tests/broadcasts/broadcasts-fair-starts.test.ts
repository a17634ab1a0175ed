import type { BroadcastAudienceInput, SwitchboardClient } from '@switchboard/client';
import type { Broadcast } from '@switchboard/contract';
import { describe, expect } from 'vitest';
import { test as base } from '../helpers/test.js';
import { seedAudience } from './broadcast-audiences.js';
import { untilBroadcast } from './broadcast-waits.js';

/**
 * Fair starts (issue #38): a broadcast's audience is resolved in the background, at most 2 of a platform at a time,
 * and due broadcasts are taken round-robin over platforms, so tenant A starting many large broadcasts at once does
 * not hold up tenant B: B's contacts/list and B's own broadcast's first send stay within 2 s.
 */

/** Large enough that resolving 20 of them inside their create requests held the pool for many seconds. */
const AUDIENCE = 5_000;
const BOUND_MS = 2_000;

/** Tenant A (Acme, with the `crowd` audience seeded once) and tenant B (Globex), each through its member's key. */
const test = base.extend('tenants', { scope: 'file' }, async ({ server, acme, globex }) => {
  await seedAudience(server.databaseUrl, acme.mainChannelId, 'crowd', AUDIENCE, 15_593_000_000);
  const [a, b] = [server.client(acme.memberKey).workspace, server.client(globex.memberKey).workspace];
  const crowd = (await a.labels.list()).data.find((label) => label.name === 'crowd')!;
  return { a, b, audience: { labelIds: [crowd.id] } };
});
test.override('serverEnv', {
  // The file polls its signals through the API: more than a minute's default api_read budget.
  RATE_LIMIT_API_READ: '100000',
  RATE_LIMIT_API_WRITE: '10000',
});

type Workspace = SwitchboardClient['workspace'];

const create = (name: string, audience: BroadcastAudienceInput, scheduledAt?: string) => ({
  action: 'create' as const,
  name,
  templateName: 'order_update',
  variables: ['{{contact.name}}', 'A-1'],
  audience,
  ...(scheduledAt && { scheduledAt }),
});

/** contacts/list of `workspace` every 100 ms until `stop` settles: the slowest reply's time. */
async function slowestList(workspace: Workspace, stop: Promise<unknown>): Promise<number> {
  let done = false;
  void stop.finally(() => (done = true));
  let slowest = 0;
  while (!done) {
    const began = Date.now();
    await workspace.contacts.list({ limit: 50 });
    slowest = Math.max(slowest, Date.now() - began);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return slowest;
}

/** How long after `from` the broadcast's first recipient was sent (polled through broadcasts/list). */
async function firstSendAfter(workspace: Workspace, id: string, from: number): Promise<number> {
  await untilBroadcast(workspace.broadcasts, id, (b) => b.counts.sent + b.counts.delivered > 0, { timeoutMs: 60_000 });
  return Date.now() - from;
}

/** A's broadcasts once `count` of them have left `preparing` and `scheduled`: the heavy part is under way. */
const startedOf = async (workspace: Workspace, ids: string[], count: number) => {
  for (;;) {
    const { data } = await workspace.broadcasts.list({ limit: 100 });
    const started = data.filter((b: Broadcast) => ids.includes(b.id) && !['preparing', 'scheduled'].includes(b.status));
    if (started.length >= count) return started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/**
 * While A's broadcasts (`ids`) prepare, until 4 of them have started: how long after `from` B's broadcast `mine`
 * sent its first message, and B's slowest contacts/list meanwhile. Then A's are cancelled, so their sends do not run
 * on into the next test.
 */
async function whileAPrepares(a: Workspace, b: Workspace, ids: string[], mine: string, from: number) {
  const heavy = startedOf(a, ids, 4);
  const listing = slowestList(b, heavy);
  const firstSend = await firstSendAfter(b, mine, from);
  await heavy;
  const slowest = await listing;
  await Promise.all(ids.map((broadcastId) => a.broadcasts.manage({ action: 'cancel', broadcastId })));
  return { firstSend, slowest };
}

describe('fair starts', { timeout: 240_000 }, () => {
  test('tenant A creates 20 large broadcasts at once: B’s contacts/list and first send stay within 2 s', async ({
    tenants: { a, b, audience },
  }) => {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => a.broadcasts.manage(create(`Crowd ${i}`, audience))),
    );
    // Each answered `preparing`: nothing of its audience is resolved in the request.
    expect(created.map((reply) => [reply.data.status, reply.data.counts.recipients])).toEqual(
      Array.from({ length: 20 }, () => ['preparing', 0]),
    );
    const ids = created.map((reply) => reply.data.id);
    const asked = Date.now();
    const mine = await b.broadcasts.manage(create('B now', { all: true }));
    const { firstSend, slowest } = await whileAPrepares(a, b, ids, mine.data.id, asked);
    expect(firstSend).toBeLessThan(BOUND_MS);
    expect(slowest).toBeLessThan(BOUND_MS);
  });

  test('10 of A’s broadcasts fall due at once: B’s, due with them, sends within 2 s of being taken', async ({
    tenants: { a, b, audience },
  }) => {
    const at = Date.now() + 8_000;
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        a.broadcasts.manage(create(`Due ${i}`, audience, new Date(at).toISOString())),
      ),
    );
    const ids = created.map((reply) => reply.data.id);
    // B's falls due a moment after A's ten: taken one at a time in due order, it would start last.
    const mine = await b.broadcasts.manage(create('B due', { all: true }, new Date(at + 1).toISOString()));
    // The scheduler looks every second: B's is taken within a second of its time.
    const { firstSend, slowest } = await whileAPrepares(a, b, ids, mine.data.id, at + 1_000);
    expect(firstSend).toBeLessThan(BOUND_MS);
    expect(slowest).toBeLessThan(BOUND_MS);
  });
});
