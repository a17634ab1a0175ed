import type { IdempotencyStore } from '../../kit/idempotency.js';
import { periodicWorker } from '../../kit/periodic-worker.js';
import { IdempotencyKey } from './idempotency-key.entity.js';

/** How long a reply is replayed to retries (Stripe keeps 24 h too). */
const KEEP_MS = 24 * 3_600_000;
/** A claim whose request never replied (its process died) lapses after this, so the key is not stuck for 24 h. */
const CLAIM_LEASE_MS = 5 * 60_000;

const after = (now: Date, ms: number) => new Date(now.getTime() + ms);

/** The `idempotency_keys` table behind the HTTP layer's Idempotency-Key middleware. */
export const idempotencyStore: IdempotencyStore = {
  async claim(em, userId, key, fingerprint) {
    // One statement so that it is the lock: of two parallel requests with one key, exactly one inserts the row or
    // takes over a lapsed one (a reply past its 24 h, or a claim past its lease); the other changes nothing.
    const now = new Date();
    const claim = {
      fingerprint,
      statusCode: null,
      responseBody: null,
      createdAt: now,
      expiresAt: after(now, CLAIM_LEASE_MS),
    };
    const { affectedRows } = await em
      .createQueryBuilder(IdempotencyKey)
      .insert({ user: userId, key, ...claim })
      .onConflict(['user', 'key'])
      .merge(claim)
      .where({ expiresAt: { $lte: now } })
      .execute('run');
    return affectedRows === 1;
  },

  async stored(em, userId, key) {
    const row = await em.findOne(
      IdempotencyKey,
      { user: userId, key },
      { fields: ['fingerprint', 'statusCode', 'responseBody'], disableIdentityMap: true },
    );
    return row
      ? { fingerprint: row.fingerprint, statusCode: row.statusCode ?? null, responseBody: row.responseBody }
      : undefined;
  },

  async settle(em, userId, key, status, body, keep = false) {
    if (!keep && (status === 400 || status >= 500)) {
      await em.nativeDelete(IdempotencyKey, { user: userId, key, statusCode: null });
      return;
    }
    const now = new Date();
    await em.nativeUpdate(
      IdempotencyKey,
      { user: userId, key, statusCode: null },
      { statusCode: status, responseBody: body ?? null, createdAt: now, expiresAt: after(now, KEEP_MS) },
    );
  },
};

/**
 * Deletes expired keys every ten minutes. Periodic rather than on access: the SDK sends a key with every write and
 * most are never sent again, so a delete on access would never reach them. Several instances sweeping the same table
 * is harmless (each delete is one indexed statement).
 */
export const idempotencySweeper = periodicWorker({
  name: 'idempotency.sweep',
  everyMs: 10 * 60_000,
  failure: 'idempotency key sweep failed',
  async run({ em }) {
    await em.fork().nativeDelete(IdempotencyKey, { expiresAt: { $lte: new Date() } });
  },
});
