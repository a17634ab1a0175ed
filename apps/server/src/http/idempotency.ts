import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateClass } from '@switchboard/contract';
import type { NextFunction, Request, Response } from 'express';
import type { ZodTypeAny } from 'zod';
import { AppError, UNAVAILABLE_RETRY_AFTER_SECONDS, ValidationError } from '../kit/errors.js';
import type { IdempotencyStore } from '../kit/idempotency.js';
import type { SecretBox } from '../kit/secrets.js';
import type { Logger } from '../logger.js';
import { routeMetadata } from './context.js';

/**
 * Idempotent writes with Stripe's semantics. A write that carries `Idempotency-Key` claims the key (an insert)
 * before the handler runs; the reply it gets is stored for 24 h per (API user, key) and replayed to any retry
 * with the same parameters, so a client whose connection broke can send the write again without doing it twice.
 */
const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** `res.locals` flag: keep this failure's reply for retries (an AfterEffectError: something already happened). */
export const KEEP_IDEMPOTENT_REPLY = 'keepIdempotentReply';
const WRITE_CLASSES: readonly RateClass[] = ['api_write', 'api_message', 'api_admin_write'];
const VALID_KEY = /^[\x20-\x7E]{1,255}$/;

interface MatchedRoute {
  path: string;
  body?: unknown;
  query?: unknown;
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
  return createHash('sha256')
    .update(`${route.path}\n${JSON.stringify(parsed.data, sortedKeys)}`)
    .digest('hex');
}

/**
 * A kept reply is sealed with the SECRETS_KEY box when there is one, bound to its user and key: replies carry
 * secrets (webhooks/manage's create and rotation, which cannot happen without the box) and personal data, and
 * are kept 24 h. The envelope is always an object, so a stored string is a sealed reply.
 */
function replyBox(secrets: SecretBox | undefined, userId: string, key: string) {
  const context = `idempotency:${userId}:${key}`;
  return {
    seal: (body: unknown) => (secrets ? secrets.encrypt(JSON.stringify(body ?? null), context) : body),
    open: (stored: unknown): unknown => {
      if (typeof stored !== 'string') return stored;
      if (!secrets) throw new AppError(503, 'service_unavailable', SEALED_REPLY_UNREADABLE);
      try {
        return JSON.parse(secrets.decrypt(stored, context)) as unknown;
      } catch {
        throw new AppError(503, 'service_unavailable', SEALED_REPLY_UNREADABLE);
      }
    },
  };
}
const SEALED_REPLY_UNREADABLE =
  `The reply kept for this ${IDEMPOTENCY_HEADER} cannot be opened ` + 'with the configured SECRETS_KEY.';

const keyReused = () =>
  new AppError(
    422,
    'idempotency_key_reused',
    `This ${IDEMPOTENCY_HEADER} was already used with different parameters or another endpoint; use a new ` +
      `key for a new request.`,
  );
const keyStillRunning = () =>
  new AppError(
    409,
    'idempotency_key_in_progress',
    `A request with this ${IDEMPOTENCY_HEADER} is still running; retry after it finishes.`,
  );
const keyRetriedConcurrently = () =>
  new AppError(
    409,
    'idempotency_key_in_progress',
    `A request with this ${IDEMPOTENCY_HEADER} is being retried concurrently; retry shortly.`,
  );

/** Route middleware (after the rate limit, before validation and the handler) for the contract's write classes. */
export function idempotency(rootEm: EntityManager, store: IdempotencyStore, logger: Logger, secrets?: SecretBox) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    const metadata = routeMetadata(req);
    if (key === undefined || !metadata || !req.caller || !WRITE_CLASSES.includes(metadata.rateClass)) return next();
    if (!VALID_KEY.test(key))
      return next(ValidationError.field(IDEMPOTENCY_HEADER, 'must be 1 to 255 printable ASCII characters'));
    const fingerprint = fingerprintOf(req);
    if (!fingerprint) return next();

    const em = rootEm.fork();
    const userId = req.caller.userId;
    const box = replyBox(secrets, userId, key);
    try {
      // A claim released between our insert and our read (the first request failed) is simply claimed again.
      for (let tries = 0; tries < 3; tries++) {
        if (await store.claim(em, userId, key, fingerprint)) {
          const reply = res.json.bind(res);
          res.json = (body: unknown) => {
            store
              .settle(em, userId, key, res.statusCode, box.seal(body), res.locals[KEEP_IDEMPOTENT_REPLY] === true)
              .catch((error: unknown) =>
                (req.log ?? logger).error({ err: error }, 'could not store the idempotent reply'),
              )
              .finally(() => reply(body));
            return res;
          };
          return next();
        }
        const existing = await store.stored(em, userId, key);
        if (!existing) continue;
        if (existing.fingerprint !== fingerprint) {
          return next(keyReused());
        }
        if (existing.statusCode === null) {
          return next(keyStillRunning());
        }
        // Only the status and body are kept; a kept 503 (AfterEffectError) still says when to look again.
        const retryAfter =
          existing.statusCode === 503 ? { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {};
        return res
          .status(existing.statusCode)
          .set({ 'Idempotent-Replayed': 'true', ...retryAfter })
          .json(box.open(existing.responseBody));
      }
      next(keyRetriedConcurrently());
    } catch (error) {
      next(error);
    }
  };
}
