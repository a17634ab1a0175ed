import { Router } from 'express';
import type { ApiDocuments } from './documents.js';
import { asyncRoute, signedIn, type PortalContext } from './portal-context.js';
import { environmentWithUserIds, withUserIds } from './try-ids.js';
import { downloadsPage, DOWNLOADS, REFERENCE_DEFINITION_PATH, referencePage } from './views/tools.js';

const FILES: { path: string; file: string; type: string; body: (docs: ApiDocuments) => string }[] = [
  { ...DOWNLOADS.json, type: 'application/json; charset=utf-8', body: (docs) => docs.openApiJson },
  { ...DOWNLOADS.yaml, type: 'application/yaml; charset=utf-8', body: (docs) => docs.openApiYaml },
  { ...DOWNLOADS.postman, type: 'application/json; charset=utf-8', body: (docs) => docs.postmanJson },
];

/**
 * The interactive reference and its definition, the downloads page and the files (all behind sign-in and
 * `settings:api`).
 */
export function toolRoutes(ctx: PortalContext): Router {
  const router = Router();

  router.get(
    '/reference',
    asyncRoute(async (req, res) => {
      const serverUrl = ctx.serverUrl(req);
      const docs = await ctx.documents(serverUrl);
      res.send(referencePage(ctx.assets, signedIn(req).viewer, serverUrl, docs.apiKeyScheme));
    }),
  );

  // What the reference loads: the definition with the signed-in user's ids in its examples.
  router.get(
    REFERENCE_DEFINITION_PATH,
    asyncRoute(async (req, res) => {
      const docs = await ctx.documents(ctx.serverUrl(req));
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Cache-Control', 'private, no-store');
      res.send(await withUserIds(docs.openApiJson, ctx.em.fork(), signedIn(req).user.caller));
    }),
  );

  router.get('/downloads', (req, res) => {
    res.send(downloadsPage(ctx.assets, signedIn(req).viewer, ctx.serverUrl(req)));
  });

  // Personal: the environment carries the signed-in user's ids.
  router.get(
    DOWNLOADS.postmanEnvironment.path,
    asyncRoute(async (req, res) => {
      const docs = await ctx.documents(ctx.serverUrl(req));
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${DOWNLOADS.postmanEnvironment.file}"`);
      res.setHeader('Cache-Control', 'private, no-store');
      res.send(await environmentWithUserIds(docs.postmanEnvironment, ctx.em.fork(), signedIn(req).user.caller));
    }),
  );

  for (const file of FILES) {
    router.get(
      file.path,
      asyncRoute(async (req, res) => {
        const docs = await ctx.documents(ctx.serverUrl(req));
        res.setHeader('Content-Type', file.type);
        res.setHeader('Content-Disposition', `attachment; filename="${file.file}"`);
        res.send(file.body(docs));
      }),
    );
  }

  return router;
}
