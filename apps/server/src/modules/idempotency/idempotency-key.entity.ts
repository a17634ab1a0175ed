import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn } from '../../kit/columns.js';
import { User } from '../users/index.js';

/**
 * One `Idempotency-Key` of one API user: claimed (no status yet) while the first request runs, then the reply
 * it got, replayed to retries. Read and written by idempotency-store.ts.
 */
const IdempotencyKeySchema = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade').updateRule('cascade'),
    key: p.string().length(255).primary(),
    /** sha256 of the endpoint path and the parameters as the contract's schema parsed them. */
    fingerprint: p.string().length(64),
    /** Null while the first request is still running. */
    statusCode: p.integer().nullable(),
    responseBody: p.json<unknown>().nullable(),
    /** When the claim, then its reply, was written. */
    createdAt: createdAtColumn(),
    /** When the key lapses: a claim 5 minutes after it was made (its request died), a reply 24 h after it was kept. */
    expiresAt: p.datetime().index('idempotency_keys_expires_at_index'),
  },
});
export class IdempotencyKey extends IdempotencyKeySchema.class {}
IdempotencyKeySchema.setClass(IdempotencyKey);
