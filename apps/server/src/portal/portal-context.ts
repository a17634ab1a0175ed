import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { LocalApi } from '../http/local-api.js';
import type { CallerContext } from '../kit/context.js';
import type { Services } from '../kit/services.js';
import type { Logger } from '../logger.js';
import type { AssetUrls } from './assets.js';
import type { ApiDocuments } from './documents.js';
import { loadPortalUser, PORTAL_PERMISSION, type PortalUser } from './sign-in.service.js';
import { csrfToken, endSignIn, PORTAL_PATH, signInHolds, type SignIn } from './session.js';
import { AppError } from '../kit/errors.js';
import { forbiddenPage, messagePage } from './views/auth.js';
import type { Viewer } from './views/layout.js';

/** What the portal's route modules share; built once in createPortal. */
export interface PortalContext {
  em: EntityManager;
  logger: Logger;
  assets: AssetUrls;
  documents(serverUrl: string): Promise<ApiDocuments>;
  /** The base URL requests from the reference and the downloaded files point at. */
  serverUrl(req: Request): string;
  /** The modules' services (the Channels page connects through the WhatsApp one). */
  services: Pick<Services, 'get'>;
  /**
   * The API's endpoints, called as the signed-in user (their caller: platform access, permissions, channels): the
   * portal's pages act through them, so they follow the API's access rules and nothing else.
   */
  api: LocalApi;
  /** Aborted when the server stops: the Live events tails end, so the drain does not wait on them. */
  shutdown: AbortSignal;
}

export interface SignedIn {
  user: PortalUser;
  viewer: Viewer;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by the portal when the session belongs to an existing user. */
      portal?: SignedIn;
    }
  }
}

/**
 * The user a session's sign-in belongs to while it holds: undefined when there is none, or the user is gone, its
 * platform was switched off, its password changed or `settings:api` was taken away since, or the absolute
 * lifetime is over. Every portal request (identify) and every ping of the Live events tail apply it.
 */
export async function signedInUser(em: EntityManager, signIn: SignIn | null): Promise<PortalUser | undefined> {
  if (!signIn?.userId) return undefined;
  const found = await loadPortalUser({ em: em.fork() }, signIn.userId);
  return found && found.caller.platformActive && signInHolds(signIn, found) ? found : undefined;
}

/** Whether a signed-in user may use the pages behind sign-in (requireAccess), the tail among them. */
export const mayUsePortal = (user: PortalUser) => user.permissions.includes(PORTAL_PERMISSION);

/**
 * Resolves the session's user (if any) for every portal request. The sign-in ends (a fresh anonymous session) when
 * it no longer holds (signedInUser).
 */
export function identify(em: EntityManager) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const user = await signedInUser(em, req.session);
      if (req.session.userId && !user) await endSignIn(req);
      if (user) {
        const allowed = mayUsePortal(user);
        const viewer = {
          email: user.email,
          name: user.name,
          platformName: user.platformName,
          allowed,
          csrfToken: csrfToken(req),
        };
        req.portal = { user, viewer };
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The pages behind sign-in: anonymous visitors go to the sign-in form, users without `settings:api` get 403. */
export function requireAccess(ctx: PortalContext) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.portal) return res.redirect(303, `${PORTAL_PATH}/sign-in`);
    if (!req.portal.viewer.allowed) return res.status(403).send(forbiddenPage(ctx.assets, req.portal.viewer));
    next();
  };
}

/** Express 4 does not catch rejected promises: route handlers go through this so failures reach the error page. */
export const asyncRoute =
  (handler: (req: Request, res: Response) => Promise<unknown>) => (req: Request, res: Response, next: NextFunction) =>
    handler(req, res).catch(next);

/** The signed-in user of a route behind requireAccess. */
export function signedIn(req: Request): SignedIn {
  if (!req.portal) throw new Error('route is not behind requireAccess');
  return req.portal;
}

/** Who a page's API calls and service calls run as: the signed-in user's caller, logged under the request's id. */
export function actingAs(req: Request, logger: Logger) {
  return { caller: signedIn(req).user.caller, log: req.log ?? logger, requestId: String(req.id) };
}

/** A CallerContext for the signed-in user, as the API builds one for a key: the services' own access checks apply. */
export function callerContext(req: Request, ctx: Pick<PortalContext, 'em' | 'logger'>): CallerContext {
  return { ...actingAs(req, ctx.logger), em: ctx.em.fork() };
}

/** A short page for the signed-in user (not found, not allowed) with a way back. */
export function messageReply(
  req: Request,
  res: Response,
  ctx: Pick<PortalContext, 'assets'>,
  status: number,
  view: { title: string; message: string; link: { href: string; label: string } },
): Response {
  return res.status(status).send(messagePage(ctx.assets, { ...view, viewer: signedIn(req).viewer }));
}

/**
 * The page for an API refusal of an action: 403 and 404 as the API chose them, with its words (an endpoint's
 * access rule, another tenant's resource, a missing one). Anything else is not a refusal: undefined.
 */
export function refusal(
  req: Request,
  res: Response,
  ctx: Pick<PortalContext, 'assets'>,
  error: unknown,
  link: { href: string; label: string },
): Response | undefined {
  if (!(error instanceof AppError) || (error.status !== 403 && error.status !== 404)) return undefined;
  const title = error.status === 403 ? 'Not allowed' : 'Not found';
  return messageReply(req, res, ctx, error.status, { title, message: error.message, link });
}
