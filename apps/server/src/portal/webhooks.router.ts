import { contract, isUuid, type WebhookEndpoint } from '@switchboard/contract';
import { Router, type Request, type Response } from 'express';
import type { CallParams } from '../http/local-api.js';
import { ValidationError } from '../kit/errors.js';
import { actingAs, asyncRoute, messageReply, refusal, signedIn, type PortalContext } from './portal-context.js';
import { confirmPage, webhookDetailPage } from './views/webhook-detail.js';
import { secretPage, WEBHOOKS, webhooksPage, type WebhookForm } from './views/webhooks.js';

const RECENT_DELIVERIES = 20;
const BACK = { href: WEBHOOKS, label: 'Back to webhooks' };

/** Outcomes a redirect may announce (`?done=`): a fixed set, so a link cannot put words on the page. */
const NOTICES: Record<string, string> = {
  deleted: 'The endpoint was deleted; no more events are sent to it.',
  enabled: 'The endpoint is enabled: new events are sent to it again.',
  disabled: 'The endpoint is disabled: no new events are sent to it, and pending retries stop.',
  redelivered: 'The delivery was queued again with the same webhook-id; its new attempt appears below.',
};

const noticeOf = (req: Request) => (typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined);

/** A form field as one string (a repeated field takes its first value). */
const text = (value: unknown) =>
  (Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '').trim();
const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

/** webhooks/manage's parameters, each form of them, without the platform (always the signed-in user's). */
type ManageParams =
  CallParams<typeof contract.platform.webhooks.manage> extends infer P
    ? P extends unknown
      ? Omit<P, 'platformId'>
      : never
    : never;

/** The webhooks API called as the signed-in user, for their own platform. */
function webhookCalls(ctx: PortalContext) {
  const endpoints = contract.platform.webhooks;
  const platformOf = (req: Request) => signedIn(req).user.platformId;
  const listEndpoints = async (req: Request) =>
    (await ctx.api.call(endpoints.list, actingAs(req, ctx.logger), { platformId: platformOf(req) })).data;
  const manage = (req: Request, params: ManageParams) =>
    ctx.api.call(endpoints.manage, actingAs(req, ctx.logger), {
      ...params,
      platformId: platformOf(req),
    } as CallParams<typeof endpoints.manage>);

  /**
   * The endpoint of the path with its newest deliveries, as webhooks/deliveries answers for it (403 another
   * platform's, 404 none). A path that is not an id addresses nothing: 404.
   */
  const endpointOf = async (req: Request, limit = RECENT_DELIVERIES) => {
    const id = req.params.endpointId!;
    if (!isUuid(id)) return undefined;
    const as = actingAs(req, ctx.logger);
    const log = await ctx.api.call(endpoints.deliveries, as, {
      platformId: platformOf(req),
      endpointId: id,
      page: 1,
      limit,
    });
    const endpoint = (await listEndpoints(req)).find((candidate) => candidate.id === id);
    return endpoint && { endpoint, log };
  };

  return { listEndpoints, manage, endpointOf };
}

/** The replies the pages share: not found, an API refusal, the detail page, the guard of an endpoint's routes. */
function webhookReplies(ctx: PortalContext, { endpointOf }: WebhookCalls) {
  const notFound = (req: Request, res: Response) =>
    messageReply(req, res, ctx, 404, {
      title: 'Endpoint not found',
      message: 'Your platform has no webhook endpoint at this address.',
      link: BACK,
    });

  /** An API refusal (403, 404) as its page; anything else goes on to the error page. */
  const refused = (req: Request, res: Response, error: unknown) => {
    if (!refusal(req, res, ctx, error, BACK)) throw error;
  };

  const showDetail = async (req: Request, res: Response, problem?: string) => {
    const found = await endpointOf(req);
    if (!found) return notFound(req, res);
    const view = {
      viewer: signedIn(req).viewer,
      endpoint: found.endpoint,
      deliveries: found.log.data,
      totalDeliveries: found.log.pagination.total,
      notice: noticeOf(req),
      error: problem,
    };
    res.status(problem ? 400 : 200).send(webhookDetailPage(ctx.assets, view));
  };

  /** A page or action of the endpoint in the path: API refusals as pages, a rejected change on the detail page. */
  const onEndpoint = (handle: (req: Request, res: Response) => Promise<unknown>) =>
    asyncRoute(async (req, res) => {
      try {
        if (!isUuid(req.params.endpointId!)) return notFound(req, res);
        await handle(req, res);
      } catch (error) {
        if (error instanceof ValidationError)
          return showDetail(req, res, error.issues.map((issue) => issue.problem).join('; '));
        refused(req, res, error);
      }
    });

  return { notFound, refused, showDetail, onEndpoint };
}

type WebhookCalls = ReturnType<typeof webhookCalls>;
type WebhookPages = WebhookCalls & ReturnType<typeof webhookReplies>;

/** The list of endpoints and the form that creates one. */
function listRoutes(router: Router, ctx: PortalContext, { listEndpoints, manage, refused }: WebhookPages) {
  router.get(
    '/webhooks',
    asyncRoute(async (req, res) => {
      try {
        const view = { viewer: signedIn(req).viewer, endpoints: await listEndpoints(req), notice: noticeOf(req) };
        res.send(webhooksPage(ctx.assets, view));
      } catch (error) {
        refused(req, res, error);
      }
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
      try {
        const { data } = await manage(req, {
          action: 'create',
          url: form.url || undefined,
          description: form.description || undefined,
          events: [...(form.events ?? [])],
          // An empty URL is left out: the API names what is missing.
        } as ManageParams);
        req.log?.info({ userId: user.id, endpointId: data.id }, 'portal webhook endpoint created');
        return res.send(secretPage(ctx.assets, viewer, data as WebhookEndpoint, (data as { secret: string }).secret));
      } catch (error) {
        if (!(error instanceof ValidationError)) return refused(req, res, error);
        for (const issue of error.issues) errors[issue.field] ??= issue.problem;
      }
      if (!form.url) errors.url = 'Enter the URL that receives the events.';
      res.status(400).send(webhooksPage(ctx.assets, { viewer, endpoints: await listEndpoints(req), form, errors }));
    }),
  );
}

/** An endpoint's page, its enable/disable switch and the confirmation pages of rotate and delete. */
function endpointPageRoutes(router: Router, ctx: PortalContext, pages: WebhookPages) {
  const { manage, endpointOf, notFound, showDetail, onEndpoint } = pages;
  router.get(
    '/webhooks/:endpointId',
    onEndpoint((req, res) => showDetail(req, res)),
  );

  router.post(
    '/webhooks/:endpointId/enabled',
    onEndpoint(async (req, res) => {
      const enabled = text(req.body?.enabled) === 'true';
      await manage(req, { action: 'update', endpointId: req.params.endpointId!, enabled });
      res.redirect(303, `${WEBHOOKS}/${req.params.endpointId}?done=${enabled ? 'enabled' : 'disabled'}`);
    }),
  );

  for (const action of ['rotate', 'delete'] as const) {
    router.get(
      `/webhooks/:endpointId/${action}`,
      onEndpoint(async (req, res) => {
        const found = await endpointOf(req, 1);
        if (!found) return notFound(req, res);
        res.send(confirmPage(ctx.assets, signedIn(req).viewer, found.endpoint, action));
      }),
    );
  }
}

/** What changes an endpoint: a new secret, deletion, a delivery sent again. */
function endpointActionRoutes(router: Router, ctx: PortalContext, pages: WebhookPages) {
  const { manage, endpointOf, notFound, onEndpoint } = pages;
  router.post(
    '/webhooks/:endpointId/rotate',
    onEndpoint(async (req, res) => {
      const { data } = await manage(req, { action: 'rotate', endpointId: req.params.endpointId! });
      req.log?.info({ userId: signedIn(req).user.id, endpointId: data.id }, 'portal webhook secret rotated');
      res.send(
        secretPage(ctx.assets, signedIn(req).viewer, data as WebhookEndpoint, (data as { secret: string }).secret),
      );
    }),
  );

  router.post(
    '/webhooks/:endpointId/delete',
    onEndpoint(async (req, res) => {
      await manage(req, { action: 'delete', endpointId: req.params.endpointId! });
      req.log?.info(
        { userId: signedIn(req).user.id, endpointId: req.params.endpointId },
        'portal webhook endpoint deleted',
      );
      res.redirect(303, `${WEBHOOKS}?done=deleted`);
    }),
  );

  router.post(
    '/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
    onEndpoint(async (req, res) => {
      const deliveryId = req.params.deliveryId!;
      if (!isUuid(deliveryId)) return notFound(req, res);
      // The endpoint of the path must be one the user may see, as on its page; the API then checks the delivery.
      if (!(await endpointOf(req, 1))) return notFound(req, res);
      await manage(req, { action: 'redeliver', deliveryId });
      res.redirect(303, `${WEBHOOKS}/${req.params.endpointId}?done=redelivered`);
    }),
  );
}

/**
 * The Developer Portal's webhooks page: webhooks/list, webhooks/manage and webhooks/deliveries called as the
 * signed-in user (LocalApi), so the page has exactly their rules: platform-level access, the user's own platform,
 * 403 for another platform's endpoint or delivery and 404 for one that does not exist, the same parameter checks.
 */
export function webhookRoutes(ctx: PortalContext): Router {
  const router = Router();
  const calls = webhookCalls(ctx);
  const pages = { ...calls, ...webhookReplies(ctx, calls) };
  listRoutes(router, ctx, pages);
  endpointPageRoutes(router, ctx, pages);
  endpointActionRoutes(router, ctx, pages);
  return router;
}
