import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { Services } from '../kit/services.js';
import type { Logger } from '../logger.js';
import type { WebhookDeps } from '../modules/webhooks/index.js';
import type { AssetUrls } from './assets.js';
import type { ApiDocuments } from './documents.js';
import { loadPortalUser, PORTAL_PERMISSION, type PortalUser } from './sign-in.service.js';
import { csrfToken, PORTAL_PATH } from './session.js';
import { forbiddenPage } from './views/auth.js';
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
  /** The webhooks page writes through the same services as webhooks/manage: its SSRF policy and job queue. */
  webhooks: WebhookDeps;
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

/** Resolves the session's user (if any) for every portal request; a deleted user's session is dropped. */
export function identify(em: EntityManager) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const userId = req.session.userId;
      const user = userId ? await loadPortalUser({ em: em.fork() }, userId) : undefined;
      if (userId && !user) delete req.session.userId;
      if (user) {
        const allowed = user.permissions.includes(PORTAL_PERMISSION);
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
