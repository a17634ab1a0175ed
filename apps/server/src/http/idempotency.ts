import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateClass } from '@switchboard/contract';
import type { NextFunction, Request, Response } from 'express';
import type { ZodTypeAny } from 'zod';
import { AppError, ValidationError } from '../kit/errors.js';
import type { Logger } from '../logger.js';
import { routeMetadata } from './context.js';

/**
 * Idempotent writes with Stripe's semantics. A write that carries `Idempotency-Key` claims the key (an insert)
 * before the handler runs; the reply it gets is stored for 24 h per (API user, key) and replayed to any retry
 * with the same parameters, so a client whose connection broke can send the write again without doing it twice.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const WRITE_CLASSES: readonly RateClass[] = ['api_write', 'api_admin_write'];
const VALID_KEY = /^[\x20-\x7E]{1,255}$/;
const KEEP_HOURS = 24;
/** A claim whose request never replied (its process died) is given up after this, so the key is not stuck for 24 h. */
const ABANDONED_CLAIM_MINUTES = 5;

interface MatchedRoute {
  path: string;
  body?: unknown;
  query?: unknown;
}

interface StoredKey {
  fingerprint: string;
  statusCode: number | null;
  responseBody: unknown;
}

const sortedKeys = (_key: string, value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/**
 * The request's identity apart from its method: the endpoint path and the parameters as the contract's schema
 * parses them, so a POST body and a GET query of the same parameters (`"20"` vs 20, defaults filled in) match.
 * Undefined when the parameters are invalid: validation will answer 400, which is never stored.
 */
function fingerprintOf(req: Request): string | undefined {
  const route = (req as Request & { tsRestRoute?: MatchedRoute }).tsRestRoute;
  const schema = (req.method === 'GET' ? route?.query : route?.body) as ZodTypeAny | undefined;
  if (!route || typeof schema?.safeParse !== 'function') return undefined;
  const parsed = schema.safeParse((req.method === 'GET' ? req.query : req.body) ?? {});
  if (!parsed.success) return undefined;
  return createHash('sha256').update(`${route.path}\n${JSON.stringify(parsed.data, sortedKeys)}`).digest('hex');
}

/**
 * Takes the key for this request: a new key, or one whose stored reply has expired or whose claim was abandoned.
 * The insert is the lock: of two parallel requests with one key, exactly one gets the row back.
 */
async function claim(em: EntityManager, userId: string, key: string, fingerprint: string): Promise<boolean> {
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
}

async function stored(em: EntityManager, userId: string, key: string): Promise<StoredKey | undefined> {
  const [row] = await em.execute<StoredKey[]>(
    `select fingerprint, status_code as "statusCode", response_body as "responseBody" from idempotency_keys where user_id = ? and key = ?`,
    [userId, key],
  );
  return row;
}

/** Keeps the reply for retries, or (400: nothing happened; 5xx: the write rolled back) frees the key for one. */
async function settle(em: EntityManager, userId: string, key: string, status: number, body: unknown): Promise<void> {
  if (status === 400 || status >= 500) {
    await em.execute(`delete from idempotency_keys where user_id = ? and key = ? and status_code is null`, [userId, key]);
    return;
  }
  await em.execute(`update idempotency_keys set status_code = ?, response_body = ?::jsonb where user_id = ? and key = ? and status_code is null`, [
    status,
    JSON.stringify(body ?? null),
    userId,
    key,
  ]);
}

/** Route middleware (after the rate limit, before validation and the handler) for the contract's write classes. */
export function idempotency(rootEm: EntityManager, logger: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    const metadata = routeMetadata(req);
    if (key === undefined || !metadata || !req.caller || !WRITE_CLASSES.includes(metadata.rateClass)) return next();
    if (!VALID_KEY.test(key)) return next(ValidationError.field(IDEMPOTENCY_HEADER, 'must be 1 to 255 printable ASCII characters'));
    const fingerprint = fingerprintOf(req);
    if (!fingerprint) return next();

    const em = rootEm.fork();
    const userId = req.caller.userId;
    try {
      // A claim released between our insert and our read (the first request failed) is simply claimed again.
      for (let tries = 0; tries < 3; tries++) {
        if (await claim(em, userId, key, fingerprint)) {
          const reply = res.json.bind(res);
          res.json = (body: unknown) => {
            settle(em, userId, key, res.statusCode, body)
              .catch((error: unknown) => (req.log ?? logger).error({ err: error }, 'could not store the idempotent reply'))
              .finally(() => reply(body));
            return res;
          };
          return next();
        }
        const existing = await stored(em, userId, key);
        if (!existing) continue;
        if (existing.fingerprint !== fingerprint) {
          return next(new AppError(422, 'idempotency_key_reused', `This ${IDEMPOTENCY_HEADER} was already used with different parameters or another endpoint; use a new key for a new request.`));
        }
        if (existing.statusCode === null) {
          return next(new AppError(409, 'idempotency_key_in_progress', `A request with this ${IDEMPOTENCY_HEADER} is still running; retry after it finishes.`));
        }
        return res.status(existing.statusCode).set('Idempotent-Replayed', 'true').json(existing.responseBody);
      }
      next(new AppError(409, 'idempotency_key_in_progress', `A request with this ${IDEMPOTENCY_HEADER} is being retried concurrently; retry shortly.`));
    } catch (error) {
      next(error);
    }
  };
}

/** Deletes expired keys (the claim already ignores them; this bounds the table). Returns how many went. */
export async function sweepIdempotencyKeys(em: EntityManager): Promise<number> {
  const rows = await em.fork().execute(`delete from idempotency_keys where expires_at <= now() returning 1`);
  return rows.length;
}

/**
 * Sweeps every SWEEP_MINUTES in each server process. Periodic rather than on access: the SDK sends a key with
 * every write and most are never sent again, so a delete on access would never reach them. Several instances
 * sweeping the same table is harmless (each delete is one indexed statement).
 */
const SWEEP_MINUTES = 10;

export function startIdempotencySweeper(em: EntityManager, logger: Logger): { stop(): void } {
  const timer = setInterval(() => {
    sweepIdempotencyKeys(em).catch((error: unknown) => logger.warn({ err: error }, 'idempotency key sweep failed'));
  }, SWEEP_MINUTES * 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
