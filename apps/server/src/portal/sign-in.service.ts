import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { hashPassword, User, verifyPassword } from '../modules/users/index.js';
import type { ServiceContext } from '../kit/context.js';

export const PORTAL_PERMISSION = 'settings:api';

export interface PortalUser {
  id: string;
  email: string;
  name: string;
  permissions: string[];
  platformId: string;
  platformName: string;
}

/** The signed-in user, re-read on every request so a removed permission or user takes effect at once. */
export async function loadPortalUser({ em }: ServiceContext, userId: string): Promise<PortalUser | undefined> {
  const user = await em.findOne(User, userId, { fields: ['email', 'name', 'permissions', 'platform.name'] });
  if (!user) return undefined;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    permissions: user.permissions,
    platformId: user.platform.id,
    platformName: user.platform.name,
  };
}

export interface Credentials {
  email: string;
  password: string;
  /** Narrows the search when the same email and password exist on several platforms. */
  platformDomain?: string;
}

export type SignInOutcome = { status: 'ok'; userId: string } | { status: 'invalid' } | { status: 'ambiguous' };

/**
 * Checks an email and password. An email may belong to users on several platforms: the user whose password
 * matches is the one signed in; only when the password matches on more than one is the platform domain asked for.
 * Unknown emails and users without a password still pay for one scrypt run, so the reply time does not tell
 * whether an email exists.
 */
export function credentialChecker({ verify = verifyPassword }: { verify?: typeof verifyPassword } = {}) {
  const decoy = hashPassword(randomBytes(16).toString('hex'));
  return async (em: EntityManager, credentials: Credentials): Promise<SignInOutcome> => {
    const domain = credentials.platformDomain?.trim().toLowerCase();
    const candidates = await em.find(
      User,
      { email: credentials.email, ...(domain ? { platform: { domain } } : {}) },
      { fields: ['passwordHash'], orderBy: { createdAt: 'asc' } },
    );
    const matched: string[] = [];
    for (const candidate of candidates) {
      if (await verify(credentials.password, candidate.passwordHash ?? (await decoy))) {
        if (candidate.passwordHash) matched.push(candidate.id);
      }
    }
    if (candidates.length === 0) await verify(credentials.password, await decoy);
    if (matched.length === 1) return { status: 'ok', userId: matched[0]! };
    return matched.length > 1 ? { status: 'ambiguous' } : { status: 'invalid' };
  };
}

/** Sign-in attempts allowed per client IP and email without a success, before that pair must wait out the window. */
export const SIGN_IN_ATTEMPTS = { points: 5, durationSeconds: 15 * 60 } as const;

export interface SignInLimiter {
  /**
   * Spends one attempt for this IP and email before the password is checked (so parallel guesses cannot slip
   * past the count). Returns 0 when the attempt may go ahead, else the seconds until the window ends.
   */
  attempt(key: string): Promise<number>;
  /** A successful sign-in gives the pair its full budget back. */
  reset(key: string): Promise<void>;
}

/**
 * rate-limiter-flexible, as for the API's rate classes: Redis when configured (one budget across instances),
 * with per-process memory as the fallback when Redis is down.
 */
export function signInLimiter(redis?: Redis): SignInLimiter {
  const options = {
    points: SIGN_IN_ATTEMPTS.points,
    duration: SIGN_IN_ATTEMPTS.durationSeconds,
    keyPrefix: 'sb:rl:portal-sign-in',
  };
  const memory = new RateLimiterMemory(options);
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory })
    : memory;
  return {
    async attempt(key) {
      try {
        await limiter.consume(key);
        return 0;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw rejection;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
