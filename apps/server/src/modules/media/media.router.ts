import { pipeline } from 'node:stream/promises';
import { contract } from '@switchboard/contract';
import express, { type Router } from 'express';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { MESSAGING } from '../messages/index.js';
import { MEDIA_LINKS } from './media-links.js';
import { getMessageMedia, openMediaLink, type MediaDeps } from './media.service.js';

const mediaDeps = ({ services }: RouteDeps): MediaDeps => ({
  providers: services.get(MESSAGING),
  links: services.get(MEDIA_LINKS),
  now: () => new Date(),
});

export function mediaRouter(deps: RouteDeps) {
  return {
    get: implement<typeof contract.workspace.chat.media.get>(deps.em, deps.logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await getMessageMedia(ctx, mediaDeps(deps), msgid),
    })),
  };
}

/**
 * `GET /media/<token>`: a link chat/media/get handed out, opened without an API key (the signed token is the
 * permission). Failures before the first byte are envelopes (404 for a bad link, 503 when the provider is down);
 * a transfer that breaks later can only be cut off. The file is the customer's, not ours: a sandboxing CSP keeps an
 * HTML or SVG file from running as this origin, and it is never cached (the global no-store).
 */
export function mediaLinkRoutes(deps: RouteDeps): Router {
  const router = express.Router();
  // Mounted by prefix and read from the raw path: a route parameter would be percent-decoded, and a malformed
  // escape would fail there; a real token has no escapes, so anything else is just an unknown link.
  router.use('/media', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const log = req.log ?? deps.logger;
    openMediaLink(deps.em.fork(), mediaDeps(deps), req.path.slice(1))
      .then(async (file) => {
        if (file.filename) res.attachment(file.filename);
        res.setHeader('Content-Type', file.mimeType);
        if (file.size !== null) res.setHeader('Content-Length', String(file.size));
        res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
        await pipeline(file.body, res).catch((error: unknown) => {
          log.warn({ err: error }, 'media transfer broke off');
        });
      })
      .catch(next);
  });
  return router;
}
