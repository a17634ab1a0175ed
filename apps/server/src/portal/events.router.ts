import { EVENT_STREAM } from '@switchboard/contract';
import { Router, type Request } from 'express';
import type { Caller } from '../kit/context.js';
import { UnauthorizedError } from '../kit/errors.js';
import { serveEventStream } from '../modules/event-stream/index.js';
import { asyncRoute, mayUsePortal, refusal, signedIn, signedInUser, type PortalContext } from './portal-context.js';
import { PORTAL_PATH, storedSignIn } from './session.js';
import { EVENTS_STREAM_PATH, eventsPage } from './views/events.js';

const BACK = { href: `${PORTAL_PATH}/events`, label: 'Back to Live events' };

/**
 * The tail's caller at a ping, by the rules every portal page applies (identify, then requireAccess), to the
 * session as stored now: signed out, a password change, the platform switched off, `settings:api` taken away,
 * the absolute lifetime or the idle timeout over, and the tail ends.
 */
async function tailCaller(ctx: PortalContext, req: Request): Promise<Caller> {
  const user = await signedInUser(ctx.em, await storedSignIn(req));
  if (!user || !mayUsePortal(user)) throw new UnauthorizedError('The portal session has ended; sign in again.');
  return user.caller;
}

/**
 * The Live events page and its tail: the same stream as GET events/stream, as the signed-in user (their channels),
 * authenticated by the portal session, so the browser's EventSource needs no key. At each ping the session is
 * checked again as a page request would check it (tailCaller), as a key is resolved again for the API's stream.
 */
export function eventRoutes(ctx: PortalContext): Router {
  const router = Router();
  const serve = serveEventStream({ em: ctx.em, services: ctx.services });

  router.get('/events', (req, res) => {
    res.send(eventsPage(ctx.assets, signedIn(req).viewer, ctx.serverUrl(req)));
  });

  router.get(
    EVENTS_STREAM_PATH,
    asyncRoute(async (req, res) => {
      const params = EVENT_STREAM.params.safeParse(req.query);
      if (!params.success) return res.status(400).type('text/plain').send('Invalid channelId or types.');
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      try {
        await serve({
          params: params.data,
          caller: signedIn(req).user.caller,
          lastEventId: req.get('last-event-id'),
          recheck: () => tailCaller(ctx, req),
          res,
          signal: AbortSignal.any([gone.signal, ctx.shutdown]),
          log: req.log ?? ctx.logger,
        });
      } catch (error) {
        // Refused before it started (a channel that is not the user's): the API's 403, as a page.
        if (!refusal(req, res, ctx, error, BACK)) throw error;
      }
    }),
  );

  return router;
}
