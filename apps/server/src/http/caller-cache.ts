import { isUuid } from '@switchboard/contract';
import { LRUCache } from 'lru-cache';
import { LAST_USE_INTERVAL_MS, type FoundCaller } from '../kit/auth.js';
import type { Caller } from '../kit/context.js';

/** How the cache hears about committed changes to what a cached caller means (see startCallerCache). */
export interface CallerChanges {
  /** A change committed: the payload is the id of the user whose callers (every key) changed; else everything. */
  notified(payload: string): void;
  /** Changes are being heard from now on (again): nothing cached before can be trusted. */
  listening(): void;
  /** Changes can no longer be heard: the cache must not serve until `listening`. */
  lost(): void;
}

/** The source of those changes (db/notification-listener.ts over PostgreSQL LISTEN/NOTIFY). */
export interface ChangeFeed {
  /**
   * Resolves true once every change committed before this call has been reported through CallerChanges, false
   * when that cannot be confirmed (not listening, connection lost).
   */
  catchUp(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface CallerCacheOptions {
  /** A safety net only: changes evict entries when they commit; this bounds how long an entry lives anyway. */
  ttlMs: number;
  maxEntries: number;
}

export interface CallerCacheStats {
  hits: number;
  misses: number;
  /** Whether changes are being heard, i.e. whether the cache may serve. */
  listening: boolean;
}

interface Entry {
  caller: Caller;
  /** When this instance next records the key's use (LAST_USE_INTERVAL_MS apart). */
  nextUseRecordAt: number;
}

/** How long the due uses of keys gather before they are recorded together. */
const USE_RECORD_DELAY_MS = 250;

/**
 * The last uses of the keys this cache serves, recorded together: one statement per USE_RECORD_DELAY_MS for every
 * key due (its lookup said so, or a minute passed since this cache recorded it), instead of one transaction per key
 * (a server used by a few thousand keys wrote tens a second; docs/benchmarks.md, channels/list). Last use is
 * advisory; what is pending when the cache stops is recorded then.
 */
function useRecorder(recordUses: (apiKeyIds: string[]) => void) {
  const due = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (due.size) recordUses([...due]);
    due.clear();
  };
  return {
    used(apiKeyId: string) {
      due.add(apiKeyId);
      timer ??= setTimeout(flush, USE_RECORD_DELAY_MS).unref();
    },
    stop() {
      clearTimeout(timer);
      flush();
    },
  };
}

export interface CallerCache {
  /**
   * The caller of the key with this hash: from the cache when it holds the key and is up to date with every
   * change committed before the call; else from `lookup`, remembered if nothing changed meanwhile.
   */
  resolve(keyHash: string, lookup: () => Promise<FoundCaller | null>): Promise<Caller | null>;
  stats(): CallerCacheStats;
  stop(): Promise<void>;
}

const frozen = (caller: Caller): Caller =>
  Object.freeze({
    ...caller,
    permissions: Object.freeze([...caller.permissions]),
    channelIds: Object.freeze([...caller.channelIds]),
  });

function indexedEntries(options: CallerCacheOptions) {
  const hashesByUser = new Map<string, Set<string>>();
  const entries = new LRUCache<string, Entry>({
    max: options.maxEntries,
    ttl: options.ttlMs,
    dispose: (entry, hash) => {
      const hashes = hashesByUser.get(entry.caller.userId);
      hashes?.delete(hash);
      if (hashes?.size === 0) hashesByUser.delete(entry.caller.userId);
    },
  });
  return { entries, hashesByUser };
}

/**
 * An in-process cache of resolved API-key callers, keyed by the key's SHA-256, kept exact by invalidation:
 * - `connect` starts the change feed; until it reports `listening`, and whenever it is lost, nothing is served
 *   from the cache (every request queries) and everything cached is dropped.
 * - A hit first waits for `catchUp()`: every change committed before the request arrived has then evicted its
 *   entries, on every instance. Concurrent hits share one catch-up round trip (see the feed).
 * - A lookup remembers its result only if no change was reported while it ran (`generation`) and the feed caught
 *   up meanwhile: a change that committed after the lookup read the database, but was heard before the result came
 *   back, would otherwise be cached stale; one committed before the request is heard before the result is stored,
 *   so a lookup that completes leaves nothing for an older notice to evict later.
 * lru-cache (isaacs/node-lru-cache): the npm ecosystem's standard LRU, maintained, typed, with per-entry TTL and a
 * dispose hook (which keeps the by-user index in step with evictions); bounded by entry count.
 */
export function startCallerCache(
  options: CallerCacheOptions,
  connect: (changes: CallerChanges) => ChangeFeed,
  recordUses: (apiKeyIds: string[]) => void,
): CallerCache {
  const { entries, hashesByUser } = indexedEntries(options);
  const state = { listening: false, generation: 0, hits: 0, misses: 0 };
  const uses = useRecorder(recordUses);

  const forget = (userId: string | null) => {
    state.generation += 1;
    if (userId === null) return entries.clear();
    for (const hash of [...(hashesByUser.get(userId) ?? [])]) entries.delete(hash);
  };
  const feed = connect({
    // The triggers send the user's id, or '' after a TRUNCATE; anything unexpected drops everything.
    notified: (payload) => forget(isUuid(payload) ? payload.toLowerCase() : null),
    listening() {
      forget(null);
      state.listening = true;
    },
    lost() {
      state.listening = false;
      forget(null);
    },
  });

  function store(keyHash: string, caller: Caller) {
    entries.set(keyHash, { caller: frozen(caller), nextUseRecordAt: Date.now() + LAST_USE_INTERVAL_MS });
    let hashes = hashesByUser.get(caller.userId);
    if (!hashes) hashesByUser.set(caller.userId, (hashes = new Set()));
    hashes.add(keyHash);
  }

  return {
    async resolve(keyHash, lookup) {
      if (state.listening && entries.has(keyHash) && (await feed.catchUp())) {
        const entry = entries.get(keyHash);
        if (entry) {
          state.hits += 1;
          const now = Date.now();
          if (now >= entry.nextUseRecordAt) {
            entry.nextUseRecordAt = now + LAST_USE_INTERVAL_MS;
            if (entry.caller.apiKeyId) uses.used(entry.caller.apiKeyId);
          }
          return entry.caller;
        }
      }
      state.misses += 1;
      const generation = state.generation;
      // The catch-up runs beside the lookup: a change committed before this request whose notice is still on its
      // way is heard before the result is stored (and stops the store), instead of evicting it a moment later.
      const [found, caughtUp] = await Promise.all([lookup(), state.listening ? feed.catchUp() : false]);
      if (!found) return null;
      const { lastUseDue, ...caller } = found;
      if (lastUseDue) uses.used(caller.apiKeyId);
      if (caughtUp && state.listening && generation === state.generation) store(keyHash, caller);
      return caller;
    },
    stats: () => ({ hits: state.hits, misses: state.misses, listening: state.listening }),
    stop: () => {
      uses.stop();
      return feed.stop();
    },
  };
}
