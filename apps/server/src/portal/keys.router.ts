import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { NotFoundError } from '../kit/errors.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../modules/api-keys/index.js';
import { asyncRoute, signedIn, type PortalContext } from './portal-context.js';
import { PORTAL_PATH } from './session.js';
import { messagePage } from './views/auth.js';
import { keyCreatedPage, keysPage, revokeConfirmPage } from './views/keys.js';

const keyName = z
  .string({ required_error: 'Enter a name for the key.' })
  .trim()
  .min(1, 'Enter a name for the key.')
  .max(100, 'Use at most 100 characters.');

const PREFIX_PATTERN = /^sb_live_[A-Za-z0-9_-]{8}$/;

function createKey(ctx: PortalContext) {
  return asyncRoute(async (req, res) => {
    const { user, viewer } = signedIn(req);
    const em = ctx.em.fork();
    const name = keyName.safeParse(req.body?.name);
    if (!name.success) {
      const keys = await listApiKeys({ em }, user.id);
      const typed = typeof req.body?.name === 'string' ? req.body.name : undefined;
      return res.status(400).send(
        keysPage(ctx.assets, {
          viewer,
          serverUrl: ctx.serverUrl(req),
          keys,
          name: typed,
          nameError: name.error.issues[0]!.message,
        }),
      );
    }
    const created = await createApiKey({ em }, user.id, name.data);
    req.log?.info({ userId: user.id, prefix: created.prefix }, 'portal API key created');
    res.send(keyCreatedPage(ctx.assets, viewer, created, ctx.serverUrl(req)));
  });
}

export function keyRoutes(ctx: PortalContext): Router {
  const router = Router();

  const notFound = (req: Request, res: Response) =>
    res.status(404).send(
      messagePage(ctx.assets, {
        title: 'Key not found',
        message: 'You have no API key with that prefix.',
        viewer: signedIn(req).viewer,
        link: { href: `${PORTAL_PATH}/keys`, label: 'Back to API keys' },
      }),
    );

  router.get(
    '/keys',
    asyncRoute(async (req, res) => {
      const { user, viewer } = signedIn(req);
      const revoked =
        typeof req.query.revoked === 'string' && PREFIX_PATTERN.test(req.query.revoked) ? req.query.revoked : undefined;
      const notice = revoked && `Key ${revoked}… was revoked; requests with it are now refused with 401.`;
      const keys = await listApiKeys({ em: ctx.em.fork() }, user.id);
      res.send(keysPage(ctx.assets, { viewer, serverUrl: ctx.serverUrl(req), keys, notice }));
    }),
  );

  router.post('/keys', createKey(ctx));

  router.get(
    '/keys/:prefix/revoke',
    asyncRoute(async (req, res) => {
      const { user, viewer } = signedIn(req);
      const key = (await listApiKeys({ em: ctx.em.fork() }, user.id)).find((k) => k.prefix === req.params.prefix);
      if (!key) return notFound(req, res);
      if (key.revokedAt) return res.redirect(303, `${PORTAL_PATH}/keys`);
      res.send(revokeConfirmPage(ctx.assets, viewer, key));
    }),
  );

  router.post(
    '/keys/:prefix/revoke',
    asyncRoute(async (req, res) => {
      const { user } = signedIn(req);
      try {
        // The service limits the lookup to this user's keys: another user's prefix is "not found".
        const key = await revokeApiKey({ em: ctx.em.fork() }, req.params.prefix!, user.id);
        req.log?.info({ userId: user.id, prefix: key.prefix }, 'portal API key revoked');
        res.redirect(303, `${PORTAL_PATH}/keys?revoked=${encodeURIComponent(key.prefix)}`);
      } catch (error) {
        if (error instanceof NotFoundError) return notFound(req, res);
        throw error;
      }
    }),
  );

  return router;
}
