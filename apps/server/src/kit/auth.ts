import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from './context.js';

/**
 * What the HTTP auth middleware needs from the module that owns API keys: the key format (to refuse keys sent
 * where they leak) and the lookup of a presented key.
 */
export interface ApiKeyLookup {
  /** Does this text carry one of our keys? */
  containsKey(value: string): boolean;
  isWellFormed(apiKey: string): boolean;
  /** The caller of an active key, or null when no key matches or it was revoked. */
  findCaller(em: EntityManager, apiKey: string): Promise<Caller | null>;
}
