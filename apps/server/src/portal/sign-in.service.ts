import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Caller, ServiceContext } from '../kit/context.js';
import { findUserCaller } from '../modules/api-keys/index.js';
import { hashPassword, needsRehash, User, verifyPassword } from '../modules/users/index.js';

export const PORTAL_PERMISSION = 'settings:api';

export interface PortalUser {
  id: string;
  email: string;
  name: string;
  permissions: string[];
  platformId: string;
  platformName: string;
  /** Sessions signed in at another version have ended (password changed, `settings:api` taken away). */
  sessionVersion: number;
  /** What the user's API key would resolve to: the portal's pages act as this caller (LocalApi). */
  caller: Caller;
}

/** The signed-in user, re-read on every request so a removed permission or user takes effect at once. */
export async function loadPortalUser({ em }: ServiceContext, userId: string): Promise<PortalUser | undefined> {
  const user = await em.findOne(User, userId, {
    fields: ['email', 'name', 'permissions', 'sessionVersion', 'platform.name'],
  });
  const caller = user && (await findUserCaller({ em }, userId));
  if (!user || !caller) return undefined;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    permissions: user.permissions,
    platformId: user.platform.id,
    platformName: user.platform.name,
    sessionVersion: user.sessionVersion,
    caller,
  };
}

export interface Credentials {
  email: string;
  password: string;
  /** Narrows the search when the same email and password exist on several platforms. */
  platformDomain?: string;
}

export type SignInOutcome =
  | {
      status: 'ok';
      userId: string;
      /** The stored hash was made with older parameters: store a new one of this password (rehashPassword). */
      rehash: boolean;
      /** The user's platform is inactive: the password matched, but the portal is closed to it. */
      platformActive: boolean;
    }
  | { status: 'invalid' }
  | { status: 'ambiguous' };

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
      { fields: ['passwordHash', 'platform.isActive'], orderBy: { createdAt: 'asc' } },
    );
    const matched: typeof candidates = [];
    for (const candidate of candidates) {
      if (await verify(credentials.password, candidate.passwordHash ?? (await decoy))) {
        if (candidate.passwordHash) matched.push(candidate);
      }
    }
    if (candidates.length === 0) await verify(credentials.password, await decoy);
    const [user] = matched;
    if (matched.length === 1 && user)
      return {
        status: 'ok',
        userId: user.id,
        rehash: needsRehash(user.passwordHash),
        platformActive: user.platform.isActive,
      };
    return matched.length > 1 ? { status: 'ambiguous' } : { status: 'invalid' };
  };
}

/** Sign-in attempts per client address and email without a success before that pair waits out the window. */
export const SIGN_IN_ATTEMPTS = { points: 5, durationSeconds: 15 * 60 } as const;
/**
 * Failed sign-ins allowed per account (email), from all addresses together: what stops guessing from many (or
 * forged) addresses. The price is that a guesser can make the account wait out the window; the per-address budget
 * keeps any one address from spending more than half of it.
 */
export const ACCOUNT_FAILURES = { points: 10, durationSeconds: 15 * 60 } as const;

export interface SignInLimiter {
  /**
   * Spends one attempt before the password is checked (so parallel guesses cannot slip past the count). Returns 0
   * when the attempt may go ahead, else the seconds until the window ends.
   */
  attempt(key: string): Promise<number>;
  /** A successful sign-in gives the key its full budget back. */
  reset(key: string): Promise<void>;
  /** Gives back the one attempt spent on a sign-in that turned out not to be a failure. */
  refund(key: string): Promise<void>;
}

/**
 * rate-limiter-flexible, as for the API's rate classes: Redis when configured (one budget across instances),
 * with per-process memory as the fallback when Redis is down.
 */
export function signInLimiter(
  budget: { points: number; durationSeconds: number },
  keyPrefix: string,
  redis?: Redis,
): SignInLimiter {
  const options = { points: budget.points, duration: budget.durationSeconds, keyPrefix };
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
    async refund(key) {
      await limiter.reward(key, 1);
    },
  };
}
