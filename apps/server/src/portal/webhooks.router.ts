import { contract, isUuid, type WebhookEndpoint, type WebhookManageValues } from '@switchboard/contract';
import { Router, type Request, type Response } from 'express';
import { AppError, ValidationError } from '../kit/errors.js';
import { endpointView, findEndpoint, listDeliveries, listEndpoints, manageWebhook } from '../modules/webhooks/index.js';
import { asyncRoute, signedIn, type PortalContext } from './portal-context.js';
import { messagePage } from './views/auth.js';
import { confirmPage, webhookDetailPage } from './views/webhook-detail.js';
import { secretPage, WEBHOOKS, webhooksPage, type WebhookForm } from './views/webhooks.js';

const RECENT_DELIVERIES = 20;

/** Outcomes a redirect may announce (`?done=`): a fixed set, so a link cannot put words on the page. */
const NOTICES: Record<string, string> = {
  deleted: 'The endpoint was deleted; no more events are sent to it.',
  enabled: 'The endpoint is enabled: new events are sent to it again.',
  disabled: 'The endpoint is disabled: no new events are sent to it, and pending retries stop.',
  redelivered: 'The delivery was queued again with the same webhook-id; its new attempt appears below.',
};
/** Another platform's endpoint or delivery (403) and a missing one (404) are both "not found" to the portal. */
const isMissing = (error: unknown) => error instanceof AppError && (error.status === 403 || error.status === 404);

const noticeOf = (req: Request) => (typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined);

/** A form field as one string (a repeated field takes its first value). */
const text = (value: unknown) =>
  (Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '').trim();
const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

/**
 * The Developer Portal's webhooks page: the same operations as webhooks/list, webhooks/manage and
 * webhooks/deliveries, through the same services, for the signed-in user's platform (`settings:api`).
 */
export function webhookRoutes(ctx: PortalContext): Router {
  const router = Router();
  const manage = (req: Request, params: Omit<WebhookManageValues, 'platformId'>) => {
    const { platformId } = signedIn(req).user;
    return manageWebhook({ em: ctx.em.fork() }, platformId, { platformId, ...params }, ctx.webhooks);
  };

  const notFound = (req: Request, res: Response) =>
    res.status(404).send(
      messagePage(ctx.assets, {
        title: 'Endpoint not found',
        message: 'Your platform has no webhook endpoint at this address.',
        viewer: signedIn(req).viewer,
        link: { href: WEBHOOKS, label: 'Back to webhooks' },
      }),
    );

  /** The endpoint of the path, if it is one of the user's platform; another platform's is "not found" here too. */
  const endpointOf = async (req: Request): Promise<WebhookEndpoint | undefined> => {
    const id = req.params.endpointId!;
    if (!isUuid(id)) return undefined;
    const found = await findEndpoint({ em: ctx.em.fork() }, signedIn(req).user.platformId, id).catch(
      (error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      },
    );
    return found && endpointView(found);
  };

  const showDetail = async (req: Request, res: Response, problem?: string) => {
    const endpoint = await endpointOf(req);
    if (!endpoint) return notFound(req, res);
    const { user, viewer } = signedIn(req);
    const log = await listDeliveries({ em: ctx.em.fork() }, user.platformId, {
      endpointId: endpoint.id,
      page: 1,
      limit: RECENT_DELIVERIES,
    });
    const view = {
      viewer,
      endpoint,
      deliveries: log.data,
      totalDeliveries: log.pagination.total,
      notice: noticeOf(req),
      error: problem,
    };
    res.status(problem ? 400 : 200).send(webhookDetailPage(ctx.assets, view));
  };

  /** Runs a change of the endpoint in the path: not found → 404, a refusal → the detail page with its reason. */
  const change = (handle: (req: Request, res: Response) => Promise<unknown>) =>
    asyncRoute(async (req, res) => {
      if (!(await endpointOf(req))) return notFound(req, res);
      try {
        await handle(req, res);
      } catch (error) {
        if (error instanceof ValidationError)
          return showDetail(req, res, error.issues.map((issue) => issue.problem).join('; '));
        if (isMissing(error)) return notFound(req, res);
        throw error;
      }
    });

  router.get(
    '/webhooks',
    asyncRoute(async (req, res) => {
      const { user, viewer } = signedIn(req);
      res.send(
        webhooksPage(ctx.assets, {
          viewer,
          endpoints: await listEndpoints({ em: ctx.em.fork() }, user.platformId),
          notice: noticeOf(req),
        }),
      );
    }),
  );

  router.post(
    '/webhooks',
    asyncRoute(async (req, res) => {
      const { user, viewer } = signedIn(req);
      const form: WebhookForm = {
        url: text(req.body?.url),
        description: text(req.body?.description),
        events: list(req.body?.events),
      };
      const errors: Record<string, string> = {};
      // The API's own parameter rules (URL, description length, event types), then the service's (https, SSRF).
      const params = contract.platform.webhooks.manage.post.body.safeParse({
        platformId: user.platformId,
        url: form.url || undefined,
        description: form.description || undefined,
        events: form.events,
      });
      if (!form.url) errors.url = 'Enter the URL that receives the events.';
      if (!params.success) for (const issue of params.error.issues) errors[String(issue.path[0])] ??= issue.message;
      if (params.success && !errors.url) {
        try {
          const { data } = await manage(req, params.data);
          req.log?.info({ userId: user.id, endpointId: data.id }, 'portal webhook endpoint created');
          return res.send(secretPage(ctx.assets, viewer, data as WebhookEndpoint, (data as { secret: string }).secret));
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          for (const issue of error.issues) errors[issue.field] ??= issue.problem;
        }
      }
      const endpoints = await listEndpoints({ em: ctx.em.fork() }, user.platformId);
      res.status(400).send(webhooksPage(ctx.assets, { viewer, endpoints, form, errors }));
    }),
  );

  router.get(
    '/webhooks/:endpointId',
    asyncRoute((req, res) => showDetail(req, res)),
  );

  router.post(
    '/webhooks/:endpointId/enabled',
    change(async (req, res) => {
      const enabled = text(req.body?.enabled) === 'true';
      await manage(req, { endpointId: req.params.endpointId!, enabled });
      res.redirect(303, `${WEBHOOKS}/${req.params.endpointId}?done=${enabled ? 'enabled' : 'disabled'}`);
    }),
  );

  for (const action of ['rotate', 'delete'] as const) {
    router.get(
      `/webhooks/:endpointId/${action}`,
      asyncRoute(async (req, res) => {
        const endpoint = await endpointOf(req);
        if (!endpoint) return notFound(req, res);
        res.send(confirmPage(ctx.assets, signedIn(req).viewer, endpoint, action));
      }),
    );
  }

  router.post(
    '/webhooks/:endpointId/rotate',
    change(async (req, res) => {
      const { data } = await manage(req, { endpointId: req.params.endpointId!, rotateSecret: true });
      req.log?.info({ userId: signedIn(req).user.id, endpointId: data.id }, 'portal webhook secret rotated');
      res.send(
        secretPage(ctx.assets, signedIn(req).viewer, data as WebhookEndpoint, (data as { secret: string }).secret),
      );
    }),
  );

  router.post(
    '/webhooks/:endpointId/delete',
    change(async (req, res) => {
      await manage(req, { endpointId: req.params.endpointId!, delete: true });
      req.log?.info(
        { userId: signedIn(req).user.id, endpointId: req.params.endpointId },
        'portal webhook endpoint deleted',
      );
      res.redirect(303, `${WEBHOOKS}?done=deleted`);
    }),
  );

  router.post(
    '/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
    change(async (req, res) => {
      const deliveryId = req.params.deliveryId!;
      if (!isUuid(deliveryId)) return notFound(req, res);
      await manage(req, { redeliver: deliveryId });
      res.redirect(303, `${WEBHOOKS}/${req.params.endpointId}?done=redelivered`);
    }),
  );

  return router;
}
