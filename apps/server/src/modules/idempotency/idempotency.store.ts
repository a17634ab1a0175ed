import type { EntityManager } from '@mikro-orm/postgresql';
import type { IdempotencyStore } from '../../kit/idempotency.js';
import { IdempotencyKey } from './idempotency-key.entity.js';

/** How long a reply is replayed to retries (Stripe keeps 24 h too). */
const KEEP_HOURS = 24;
/** A claim whose request never replied (its process died) is given up after this, so the key is not stuck for 24 h. */
const ABANDONED_CLAIM_MINUTES = 5;

/** The `idempotency_keys` table behind the HTTP layer's Idempotency-Key middleware. */
export const idempotencyStore: IdempotencyStore = {
  async claim(em, userId, key, fingerprint) {
    // One statement so that it is the lock: of two parallel requests with one key, exactly one gets the row back.
    // Plain SQL because the ORM's upsert cannot make the conflict update conditional (expired or abandoned only).
    const rows = await em.execute(
      `insert into idempotency_keys (user_id, key, fingerprint, expires_at) values (?, ?, ?, now() + make_interval(hours => ?))
       on conflict (user_id, key) do update
          set fingerprint = excluded.fingerprint, status_code = null, response_body = null, created_at = now(), expires_at = excluded.expires_at
        where idempotency_keys.expires_at <= now()
           or (idempotency_keys.status_code is null and idempotency_keys.created_at < now() - make_interval(mins => ?))
       returning 1`,
      [userId, key, fingerprint, KEEP_HOURS, ABANDONED_CLAIM_MINUTES],
    );
    return rows.length === 1;
  },

  async stored(em, userId, key) {
    const row = await em.findOne(IdempotencyKey, { user: userId, key }, { fields: ['fingerprint', 'statusCode', 'responseBody'], disableIdentityMap: true });
    return row ? { fingerprint: row.fingerprint, statusCode: row.statusCode ?? null, responseBody: row.responseBody } : undefined;
  },

  async settle(em, userId, key, status, body, keep = false) {
    if (!keep && (status === 400 || status >= 500)) {
      await em.nativeDelete(IdempotencyKey, { user: userId, key, statusCode: null });
      return;
    }
    await em.nativeUpdate(IdempotencyKey, { user: userId, key, statusCode: null }, { statusCode: status, responseBody: body ?? null });
  },

  async sweep(em: EntityManager) {
    return em.fork().nativeDelete(IdempotencyKey, { expiresAt: { $lte: new Date() } });
  },
};
