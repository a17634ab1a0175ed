import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import type { LocalApi } from '../http/local-api.js';
import { RateLimitedError } from '../kit/errors.js';
import type { Services } from '../kit/services.js';
import type { Logger } from '../logger.js';
import { portalAssets, type AssetUrls } from './assets.js';
import { authRoutes } from './auth.router.js';
import { channelRoutes } from './channels.router.js';
import { documentCache } from './documents.js';
import { eventRoutes } from './events.router.js';
import { keyRoutes } from './keys.router.js';
import { identify, requireAccess, type PortalContext } from './portal-context.js';
import { CsrfError, PORTAL_PATH, portalSession, requireCsrf } from './session.js';
import { toolRoutes } from './tools.router.js';
import { webhookRoutes } from './webhooks.router.js';
import { messagePage } from './views/auth.js';

export { PORTAL_PATH };

export interface PortalOptions {
  /** PUBLIC_URL: the server URL in the reference and the downloads. Unset: the URL the browser used. */
  publicUrl?: string;
  /** Signs session cookies; unset, a random per-process secret (sessions then end when the process restarts). */
  sessionSecret?: string;
  /** Shares the sign-in failure budget across instances, like the API rate limits. */
  redis?: Redis;
}

export interface PortalDeps extends PortalOptions {
  orm: MikroORM;
  logger: Logger;
  services: Pick<Services, 'get'>;
  /** The API's endpoints, called as the signed-in user. */
  api: LocalApi;
  /** Aborted when the server stops: the Live events tails end. */
  shutdown: AbortSignal;
}

/**
 * helmet's headers with a CSP that allows only this origin: the portal's own script and stylesheet and the
 * locally served reference bundle; no inline or eval'd script. Styles need 'unsafe-inline': the reference UI
 * (Vue) sets style attributes at runtime, which nonces cannot cover. connect-src also admits PUBLIC_URL when
 * it names another origin, since the reference sends requests there.
 */
function securityHeaders(publicUrl: string | undefined) {
  const apiOrigin = publicUrl ? [new URL(publicUrl).origin] : [];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...apiOrigin],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
}

function errorPages(assets: AssetUrls, logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return res.end();
    const viewer = req.portal?.viewer;
    if (error instanceof CsrfError) {
      const message = 'This form has expired or did not come from this site. Go back, reload the page and try again.';
      return res.status(403).send(messagePage(assets, { title: 'Form expired', message, viewer }));
    }
    // The API's budgets apply to the portal's actions too (LocalApi): a spent one is a 429 page.
    if (error instanceof RateLimitedError) {
      res.status(429).set(error.headers);
      return res.send(messagePage(assets, { title: 'Too many requests', message: error.message, viewer }));
    }
    // body-parser's refusals (too large, too many fields, bad charset) carry their 4xx status.
    const { type, status } = error as { type?: unknown; status?: number };
    if (typeof type === 'string' && status !== undefined && status >= 400 && status < 500) {
      return res.status(status).send(
        messagePage(assets, {
          title: 'Form not accepted',
          message: 'That form submission could not be read.',
          viewer,
        }),
      );
    }
    (req.log ?? logger).error({ err: error, requestId: req.id }, 'portal error');
    const message = `Something went wrong on our side. Quote request id ${String(req.id)} when reporting it.`;
    res.status(500).send(messagePage(assets, { title: 'Something went wrong', message, viewer }));
  };
}

/**
 * The Developer Portal, mounted at /developer: server-rendered pages with their own session auth, CSRF checks,
 * HTML errors and security headers. It sits outside the API's JSON body parser and key authentication.
 */
export function createPortal(deps: PortalDeps): Router {
  const { router: assetRouter, urls: assets } = portalAssets(PORTAL_PATH);
  const secret = deps.sessionSecret ?? randomBytes(32).toString('base64url');
  if (!deps.sessionSecret)
    deps.logger.warn('SESSION_SECRET is not set: portal sessions end when this process restarts');

  const ctx: PortalContext = {
    em: deps.orm.em,
    logger: deps.logger,
    assets,
    documents: documentCache(),
    serverUrl: (req) => (deps.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`).replace(/\/+$/, ''),
    services: deps.services,
    api: deps.api,
    shutdown: deps.shutdown,
  };

  const router = Router();
  router.use(securityHeaders(deps.publicUrl));
  router.use(assetRouter);
  router.use((_req, res, next) => {
    // Pages carry CSRF tokens, account details and, once, a new key: never cache them.
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(portalSession({ orm: deps.orm, logger: deps.logger, secret }));
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));
  router.use(requireCsrf);
  router.use(identify(deps.orm.em));
  router.use(authRoutes(ctx, deps.redis));
  router.use(requireAccess(ctx));
  router.use(keyRoutes(ctx));
  router.use(channelRoutes(ctx));
  router.use(webhookRoutes(ctx));
  router.use(eventRoutes(ctx));
  router.use(toolRoutes(ctx));
  router.use((req, res) => {
    res.status(404).send(
      messagePage(assets, {
        title: 'Page not found',
        message: `Nothing here at ${req.originalUrl}.`,
        viewer: req.portal?.viewer,
      }),
    );
  });
  router.use(errorPages(assets, deps.logger));
  return router;
}
