import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { ApiKeyLookup } from '../kit/auth.js';
import type { Caller } from '../kit/context.js';
import { AppError, UnauthorizedError } from '../kit/errors.js';
import { failureBudget } from '../kit/failure-budget.js';
import type { CallerCache } from './caller-cache.js';

/** Parameter names that carry credentials in other APIs; refused here so keys never land in URLs or logs. */
const CREDENTIAL_PARAMS = new Set(['apikey', 'api_key', 'api-key', 'key', 'token', 'access_token', 'x-api-key']);
const HEADER_ONLY =
  'API keys are accepted only in the X-API-Key header (or Authorization: Bearer), never in the query string or body. ' +
  'Revoke a key that was sent there.';

function carriesKey(value: unknown, containsApiKey: (text: string) => boolean, depth = 0): boolean {
  if (depth > 5 || value === null || value === undefined) return false;
  if (typeof value === 'string') return containsApiKey(value);
  if (Array.isArray(value)) return value.some((v) => carriesKey(v, containsApiKey, depth + 1));
  if (typeof value === 'object') {
    return Object.entries(value).some(
      ([name, v]) =>
        (depth === 0 && CREDENTIAL_PARAMS.has(name.toLowerCase())) || carriesKey(v, containsApiKey, depth + 1),
    );
  }
  return false;
}

const ONE_HEADER =
  'Send one API key, in the X-API-Key header or as Authorization: Bearer <key>; this request carries two different ' +
  'keys.';
const BEARER_ONLY = 'The Authorization header must be "Bearer <API key>"; or send the key in the X-API-Key header.';

function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!match) throw new UnauthorizedError(BEARER_ONLY);
  return match[1];
}

/** The one key a request presents, from X-API-Key or Authorization: Bearer; ambiguity is refused, not resolved. */
export function presentedKey(req: Request): string | undefined {
  const header = req.get('x-api-key')?.trim();
  const bearer = bearerToken(req.get('authorization'));
  if (header !== undefined && bearer !== undefined && header !== bearer) throw new UnauthorizedError(ONE_HEADER);
  return header ?? bearer;
}

/** The caller of a key looked up without a cache, its use recorded when due. */
async function lookedUp(em: EntityManager, keys: ApiKeyLookup, apiKey: string): Promise<Caller | null> {
  const found = await keys.findCaller(em.fork(), apiKey);
  if (!found) return null;
  const { lastUseDue, ...caller } = found;
  if (lastUseDue) keys.recordUses(em.fork(), [caller.apiKeyId]);
  return caller;
}

/**
 * Resolves an API key to its caller (through the cache when given, else the api-keys module's lookup), or throws
 * 401. The lookups run on forks of `em`, made only when the database is needed (a cache hit needs none).
 * @public Also loaded from the build by tests/bench/raw-server.ts (a dynamic import knip cannot follow).
 */
export async function authenticateKey(
  em: EntityManager,
  keys: ApiKeyLookup,
  apiKey: string | undefined,
  callers?: CallerCache,
): Promise<Caller> {
  if (!apiKey) throw new UnauthorizedError('Missing API key. Send it in the X-API-Key header.');
  if (!keys.isWellFormed(apiKey)) throw new UnauthorizedError('Malformed API key.');
  const caller = callers
    ? await callers.resolve(keys.hash(apiKey), () => keys.findCaller(em.fork(), apiKey))
    : await lookedUp(em, keys, apiKey);
  if (!caller) throw new UnauthorizedError('Invalid or revoked API key.');
  if (!caller.platformActive)
    throw new AppError(
      403,
      'platform_inactive',
      'The platform of this API key is inactive; its keys are refused until it is active again.',
    );
  return caller;
}

/**
 * Requests without a valid key, per client address and instance: after this many 401s in a minute the address gets
 * 429 before any key is looked up (generous for a client fixing its configuration, a bound for a guesser or a flood).
 */
const UNAUTHENTICATED_FAILURES = { points: 60, durationSeconds: 60 } as const;

/** Express middleware for every API route: refuse keys outside headers, then authenticate the header key. */
export function authenticate(em: EntityManager, keys: ApiKeyLookup, callers?: CallerCache) {
  const failures = failureBudget(
    'unauthenticated requests',
    UNAUTHENTICATED_FAILURES.points,
    UNAUTHENTICATED_FAILURES.durationSeconds,
  );
  return async (req: Request, _res: Response, next: NextFunction) => {
    const address = req.ip ?? '';
    try {
      await failures.check(address);
      // A GET may carry a body too; a key in it is as exposed as one in a POST body.
      if (carriesKey(req.query, keys.containsKey) || carriesKey(req.body, keys.containsKey)) {
        throw new UnauthorizedError(HEADER_ONLY);
      }
      req.caller = await authenticateKey(em, keys, presentedKey(req), callers);
      next();
    } catch (error) {
      if (error instanceof UnauthorizedError) await failures.failed(address);
      next(error);
    }
  };
}
