import { EVENT_STREAM } from '@switchboard/contract';
import { Router } from 'express';
import { serveEventStream } from '../modules/event-stream/index.js';
import { loadPortalUser } from './sign-in.service.js';
import { asyncRoute, signedIn, type PortalContext } from './portal-context.js';
import { EVENTS_STREAM_PATH, eventsPage } from './views/events.js';

/**
 * The Live events page and its tail: the same stream as GET events/stream, as the signed-in user (their channels),
 * authenticated by the portal session, so the browser's EventSource needs no key. The user is loaded again at each
 * ping, as a key is: a user who lost access (or was deleted) sees the stream end.
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
      const { user } = signedIn(req);
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      await serve({
        params: params.data,
        caller: user.caller,
        lastEventId: req.get('last-event-id'),
        recheck: async () => (await loadPortalUser({ em: ctx.em.fork() }, user.id))?.caller ?? null,
        res,
        signal: gone.signal,
        log: req.log ?? ctx.logger,
      });
    }),
  );

  return router;
}
