import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from './context.js';

/** A key's last use is written at most this often, per key (the portal shows it; it is advisory). */
export const LAST_USE_INTERVAL_MS = 60_000;

/** A key's caller as the key lookup finds it, with whether the key's last use is due to be recorded. */
export type FoundCaller = Caller & { apiKeyId: string; lastUseDue: boolean };

/**
 * What the HTTP auth middleware needs from the module that owns API keys: the key format (to refuse keys sent
 * where they leak), the lookup of a presented key, and what a cache of resolved callers needs.
 */
export interface ApiKeyLookup {
  /** Does this text carry one of our keys? */
  containsKey(value: string): boolean;
  isWellFormed(apiKey: string): boolean;
  /** The key's SHA-256 (hex): what resolved callers are cached by, so the key itself is never kept. */
  hash(apiKey: string): string;
  /**
   * The caller of an active key, or null when no key matches or it was revoked; `lastUseDue` when the key's last
   * recorded use is older than LAST_USE_INTERVAL_MS (recording it is recordUses', by whoever serves the key).
   */
  findCaller(em: EntityManager, apiKey: string): Promise<FoundCaller | null>;
  /**
   * Records a use of each of these keys, unless one was recorded within LAST_USE_INTERVAL_MS, in one statement;
   * never waits.
   */
  recordUses(em: EntityManager, apiKeyIds: readonly string[]): void;
}
