import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import connectPgSimple from 'connect-pg-simple';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session, { type SessionData } from 'express-session';
import type { Logger } from '../logger.js';

declare module 'express-session' {
  interface SessionData {
    /** Set once the password matched; permissions are re-read from the database on every request. */
    userId: string;
    /** The user's `sessionVersion` at sign-in: a password change or losing `settings:api` moves it on. */
    sessionVersion: number;
    /** When the password matched (epoch ms): the session ends SIGNED_IN_LIFETIME_MS later whatever its activity. */
    signedInAt: number;
    /** Synchronizer CSRF token, one per session; every form POST must echo it. */
    csrfToken: string;
  }
}

const SESSION_COOKIE = 'sb_portal';
export const PORTAL_PATH = '/developer';
/** Idle timeout: the cookie and the stored session roll forward with every request. */
const SIGNED_IN_MAX_AGE_MS = 8 * 60 * 60 * 1000;
/** Absolute lifetime of a sign-in, however active the session stays. */
const SIGNED_IN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** A visitor who only opened the sign-in page gets a short-lived session (it exists to hold the CSRF token). */
const ANONYMOUS_MAX_AGE_MS = 60 * 60 * 1000;

export interface SessionOptions {
  orm: MikroORM;
  logger: Logger;
  /** Signs the session cookie; several instances must share it (see SESSION_SECRET). */
  secret: string;
}

/**
 * express-session with connect-pg-simple: both maintained, and the store keeps sessions in PostgreSQL
 * (portal_sessions, created by a migration), so every server instance sees them and restarts keep them.
 * The store runs its queries on MikroORM's own pg pool instead of opening a second pool; its `pgPromise`
 * option only needs an `any(query, params) → rows` function.
 */
export function portalSession({ orm, logger, secret }: SessionOptions): RequestHandler {
  const PgStore = connectPgSimple(session);
  const store = new PgStore({
    pgPromise: {
      any: async (query: string, params: unknown[]) =>
        (await (await orm.em.getConnection().getNativeClient()).query(query, params)).rows,
    },
    tableName: 'portal_sessions',
    createTableIfMissing: false,
    errorLog: (...args: unknown[]) => logger.error({ detail: args.map(String) }, 'portal session store error'),
  });
  return session({
    name: SESSION_COOKIE,
    secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    // Secure follows the request: HTTPS directly, or X-Forwarded-Proto from a proxy TRUST_PROXY trusts.
    cookie: { path: PORTAL_PATH, httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: SIGNED_IN_MAX_AGE_MS },
  });
}

/** The session's CSRF token, minted on first use (which also saves an anonymous session for the sign-in form). */
export function csrfToken(req: Request): string {
  if (!req.session.csrfToken) {
    req.session.csrfToken = randomBytes(32).toString('base64url');
    if (!req.session.userId) req.session.cookie.maxAge = ANONYMOUS_MAX_AGE_MS;
  }
  return req.session.csrfToken;
}

function tokenMatches(expected: string | undefined, presented: unknown): boolean {
  if (!expected || typeof presented !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class CsrfError extends Error {}

/** Every state-changing request must carry the session's token in the `_csrf` form field. */
export function requireCsrf(req: Request, _res: Response, next: NextFunction) {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const presented = (req.body as Record<string, unknown> | undefined)?._csrf;
  next(tokenMatches(req.session.csrfToken, presented) ? undefined : new CsrfError('invalid CSRF token'));
}

const regenerate = (req: Request) =>
  new Promise<void>((resolve, reject) => req.session.regenerate((error) => (error ? reject(error) : resolve())));

/** What a session records of its sign-in (the request's session, or the one stored now). */
export type SignIn = Partial<Pick<SessionData, 'userId' | 'sessionVersion' | 'signedInAt'>>;

/**
 * Whether the session's sign-in still holds for the user as stored now: the same session version (no password
 * change, `settings:api` not taken away since), within its absolute lifetime. Sessions from before these were
 * recorded have ended too.
 */
export function signInHolds(
  { sessionVersion, signedInAt }: SignIn,
  user: { sessionVersion: number },
  now = Date.now(),
): boolean {
  return sessionVersion === user.sessionVersion && signedInAt !== undefined && now - signedInAt < SIGNED_IN_LIFETIME_MS;
}

/**
 * The request's session as the store holds it now: a long request (the Live events tail) outlives what it loaded.
 * Null once it is gone (signed out, replaced at a new sign-in) or past its idle timeout.
 */
export function storedSignIn(req: Request): Promise<SignIn | null> {
  return new Promise((resolve, reject) =>
    req.sessionStore.get(req.sessionID, (error, stored) => (error ? reject(error) : resolve(stored ?? null))),
  );
}

/** Ends the session's sign-in: a fresh anonymous session (new id, no data) takes its place. */
export const endSignIn = regenerate;

/** Starts a fresh session for the user (a new id defeats session fixation) with a new CSRF token. */
export async function signInSession(req: Request, user: { id: string; sessionVersion: number }): Promise<void> {
  await regenerate(req);
  req.session.userId = user.id;
  req.session.sessionVersion = user.sessionVersion;
  req.session.signedInAt = Date.now();
  req.session.cookie.maxAge = SIGNED_IN_MAX_AGE_MS;
  csrfToken(req);
  await new Promise<void>((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
}

export async function signOutSession(req: Request, res: Response): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
  res.clearCookie(SESSION_COOKIE, { path: PORTAL_PATH });
}
