import type { EntityManager } from '@mikro-orm/postgresql';

/** A stored `Idempotency-Key`: the first request's fingerprint and, once it answered, its reply. */
interface StoredReply {
  fingerprint: string;
  /** Null while the first request is still running. */
  statusCode: number | null;
  responseBody: unknown;
}

/**
 * What the HTTP layer's Idempotency-Key middleware needs from the module that owns the keys' table: claim a key
 * (the claim is the lock), read what is stored, and keep or free it once the request answered.
 */
export interface IdempotencyStore {
  /** True when this request now holds the key: new, expired, or abandoned by a request that never answered. */
  claim(em: EntityManager, userId: string, key: string, fingerprint: string): Promise<boolean>;
  stored(em: EntityManager, userId: string, key: string): Promise<StoredReply | undefined>;
  /**
   * Keeps the reply for retries, or (400: nothing happened; 5xx: the write rolled back) frees the key, unless `keep`
   * says a failure came after an effect that cannot be rolled back.
   */
  settle(em: EntityManager, userId: string, key: string, status: number, body: unknown, keep?: boolean): Promise<void>;
}
