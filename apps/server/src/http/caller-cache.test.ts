import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAST_USE_INTERVAL_MS } from '../kit/auth.js';
import type { Caller } from '../kit/context.js';
import { startCallerCache, type CallerCacheOptions, type CallerChanges } from './caller-cache.js';

const ADA = '00000000-0000-4000-8000-00000000000a';
const BOB = '00000000-0000-4000-8000-00000000000b';

const callerOf = (userId: string, apiKeyId = `key-of-${userId}`): Caller & { apiKeyId: string } => ({
  userId,
  apiKeyId,
  platformId: 'platform',
  name: 'Someone',
  email: 'someone@example.com',
  platformAccess: false,
  platformActive: true,
  permissions: ['settings:api'],
  channelIds: ['channel'],
});

/** A cache over a feed the test drives: it reports changes, and decides what each catch-up does first. */
function harness(options: Partial<CallerCacheOptions> = {}) {
  let changes!: CallerChanges;
  let beforeCatchUp: () => void = () => undefined;
  let caughtUp = true;
  /** Each recording of uses: the keys it named. */
  const used: string[][] = [];
  const cache = startCallerCache(
    { ttlMs: 60_000, maxEntries: 100, ...options },
    (events) => {
      changes = events;
      return {
        catchUp: async () => {
          beforeCatchUp();
          return caughtUp;
        },
        stop: async () => undefined,
      };
    },
    (apiKeyIds) => used.push(apiKeyIds),
  );
  const lookups: string[] = [];
  /** Resolves `hash`; a lookup finds `caller` (and says whether its last use is due). */
  const resolve = (hash: string, caller: ReturnType<typeof callerOf> | null = callerOf(ADA), lastUseDue = false) =>
    cache.resolve(hash, async () => {
      lookups.push(hash);
      return caller && { ...caller, lastUseDue };
    });
  return {
    cache,
    changes: () => changes,
    resolve,
    lookups,
    used,
    onCatchUp: (action: () => void) => (beforeCatchUp = action),
    catchUpAnswers: (value: boolean) => (caughtUp = value),
  };
}

afterEach(() => vi.useRealTimers());

describe('caller cache', () => {
  it('serves nothing until the change feed listens, then serves what it looked up', async () => {
    const h = harness();
    await h.resolve('hash-a');
    await h.resolve('hash-a');
    expect(h.lookups).toEqual(['hash-a', 'hash-a']);

    h.changes().listening();
    await h.resolve('hash-a');
    expect(await h.resolve('hash-a')).toEqual(callerOf(ADA));
    expect(h.lookups).toHaveLength(3);
    expect(h.cache.stats()).toEqual({ hits: 1, misses: 3, listening: true });
  });

  it('looks up again when the catch-up cannot be confirmed', async () => {
    const h = harness();
    h.changes().listening();
    await h.resolve('hash-a');
    h.catchUpAnswers(false);
    await h.resolve('hash-a');
    expect(h.lookups).toEqual(['hash-a', 'hash-a']);
  });

  it('does not serve an entry whose change arrives during the catch-up (committed before the request)', async () => {
    const h = harness();
    h.changes().listening();
    await h.resolve('hash-a');
    h.onCatchUp(() => h.changes().notified(ADA));
    expect(await h.resolve('hash-a', null)).toBeNull();
    expect(h.lookups).toEqual(['hash-a', 'hash-a']);
  });

  it('hears a notice still on its way during a lookup before storing: the next request looks up again', async () => {
    const h = harness();
    h.changes().listening();
    h.onCatchUp(() => h.changes().notified(ADA));
    await h.resolve('hash-a');
    h.onCatchUp(() => undefined);
    await h.resolve('hash-a');
    await h.resolve('hash-a');
    expect(h.lookups).toEqual(['hash-a', 'hash-a']);
    expect(h.cache.stats()).toMatchObject({ hits: 1, misses: 2 });
  });

  it('stores nothing from a lookup whose catch-up cannot be confirmed', async () => {
    const h = harness();
    h.changes().listening();
    h.catchUpAnswers(false);
    await h.resolve('hash-a');
    h.catchUpAnswers(true);
    await h.resolve('hash-a');
    expect(h.lookups).toEqual(['hash-a', 'hash-a']);
  });

  it('evicts every key of the notified user and only theirs; an unrecognised payload evicts everything', async () => {
    const h = harness();
    h.changes().listening();
    await h.resolve('ada-1', callerOf(ADA, 'k1'));
    await h.resolve('ada-2', callerOf(ADA, 'k2'));
    await h.resolve('bob-1', callerOf(BOB, 'k3'));
    h.changes().notified(ADA.toUpperCase());
    for (const hash of ['ada-1', 'ada-2', 'bob-1']) await h.resolve(hash);
    expect(h.lookups.slice(3)).toEqual(['ada-1', 'ada-2']);

    h.changes().notified('');
    await h.resolve('bob-1');
    expect(h.lookups.slice(5)).toEqual(['bob-1']);
  });

  it('does not remember a lookup during which a change was heard', async () => {
    const h = harness();
    h.changes().listening();
    await h.cache.resolve('hash-a', async () => {
      h.changes().notified(BOB);
      return { ...callerOf(ADA), lastUseDue: false };
    });
    await h.resolve('hash-a');
    expect(h.lookups).toEqual(['hash-a']);
  });

  it('stops serving and forgets everything when the feed is lost, and starts empty when it listens again', async () => {
    const h = harness();
    h.changes().listening();
    await h.resolve('hash-a');
    h.changes().lost();
    await h.resolve('hash-a');
    await h.resolve('hash-a');
    expect(h.cache.stats().listening).toBe(false);
    h.changes().listening();
    await h.resolve('hash-a');
    expect(h.lookups).toEqual(['hash-a', 'hash-a', 'hash-a', 'hash-a']);
  });

  it('never caches a refused key', async () => {
    const h = harness();
    h.changes().listening();
    await h.resolve('unknown', null);
    await h.resolve('unknown', null);
    expect(h.lookups).toEqual(['unknown', 'unknown']);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const h = harness({ maxEntries: 2 });
    h.changes().listening();
    for (const hash of ['one', 'two', 'one', 'three', 'one', 'two']) await h.resolve(hash);
    expect(h.lookups).toEqual(['one', 'two', 'three', 'two']);
  });

  it('lets an entry expire after ttlMs even without a change', async () => {
    const h = harness({ ttlMs: 20 });
    h.changes().listening();
    await h.resolve('hash-a');
    await new Promise((resolve) => setTimeout(resolve, 60));
    await h.resolve('hash-a');
    expect(h.lookups).toEqual(['hash-a', 'hash-a']);
  });

  it('records a key’s use when its lookup says it is due, then once per LAST_USE_INTERVAL_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const h = harness();
    h.changes().listening();
    await h.resolve('hash-a', callerOf(ADA, 'k1'), true);
    await h.resolve('hash-a');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(h.used).toEqual([['k1']]);
    vi.setSystemTime(Date.now() + LAST_USE_INTERVAL_MS);
    await h.resolve('hash-a');
    await h.resolve('hash-a');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(h.used).toEqual([['k1'], ['k1']]);
  });

  it('records the uses of keys due at about the same time together, and what is pending when it stops', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const h = harness();
    h.changes().listening();
    for (const [hash, key] of [
      ['ada-1', 'k1'],
      ['ada-2', 'k2'],
      ['bob-1', 'k3'],
    ] as const)
      await h.resolve(hash, callerOf(hash.startsWith('bob') ? BOB : ADA, key));
    vi.setSystemTime(Date.now() + LAST_USE_INTERVAL_MS);
    await h.resolve('ada-1');
    await h.resolve('ada-2');
    expect(h.used).toEqual([]);
    await vi.advanceTimersByTimeAsync(250);
    expect(h.used).toEqual([['k1', 'k2']]);
    await h.resolve('bob-1');
    await h.cache.stop();
    expect(h.used).toEqual([['k1', 'k2'], ['k3']]);
  });

  it('hands out callers that cannot be changed by the request that got them', async () => {
    const h = harness();
    h.changes().listening();
    await h.resolve('hash-a');
    const cached = (await h.resolve('hash-a'))!;
    expect(Object.isFrozen(cached) && Object.isFrozen(cached.channelIds) && Object.isFrozen(cached.permissions)).toBe(
      true,
    );
  });
});
