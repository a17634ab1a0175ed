import { isUuid } from '@switchboard/contract';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { AppError } from '../../kit/errors.js';
import type { RouteDeps } from '../../kit/implement.js';
import { storeInboundDelivery } from './inbound-delivery.service.js';
import { isValidWebhookSignature, isSameSecret } from './webhook-signature.js';
import { loadCredentials, type StoredCredentials } from './whatsapp-credentials.js';
import { WHATSAPP } from './whatsapp.js';

/** Meta batches events, but a POST stays far below this; a larger body is refused before it is read whole. */
export const INBOUND_BODY_LIMIT = '5mb';

const asyncRoute =
  (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next) => {
    handler(req, res).catch(next);
  };

/** One answer for an unknown channel and a wrong token or signature, so channel ids cannot be probed. */
const VERIFICATION_REFUSED =
  'Webhook verification refused: hub.mode must be subscribe and hub.verify_token the channel’s verify token.';
const SIGNATURE_REFUSED =
  'X-Hub-Signature-256 is missing or is not the HMAC-SHA256 of this body with the channel’s app secret.';

const queryText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** body-parser's refusals of a webhook body, in the envelope (the API's own mapping names the API's 1 MB limit). */
function bodyError(error: unknown, _req: Request, _res: Response, next: NextFunction) {
  const { type } = (error ?? {}) as { type?: string };
  if (type === 'entity.too.large')
    return next(new AppError(413, 'payload_too_large', `The webhook body exceeds the ${INBOUND_BODY_LIMIT} limit.`));
  next(error);
}

/**
 * Meta's webhooks for a WhatsApp Cloud API channel, mounted under /webhooks (before the API's JSON parser and key
 * auth: the sender is authenticated by the verify token and the body signature instead):
 *
 * - `GET /whatsapp/:channelId`: the subscription check. `hub.mode=subscribe` and the channel's verify token → 200
 *   with `hub.challenge` as text/plain; anything else, an unknown or unconnected channel included → 403.
 * - `POST /whatsapp/:channelId`: `X-Hub-Signature-256` checked on the exact bytes received; missing or wrong → 401
 *   and nothing stored. A valid delivery is stored and queued (inbound-delivery.service.ts) and answered 200 at
 *   once, whatever it holds: a body that is not JSON is stored too, and skipped by the job with a log line, since
 *   Meta would redeliver anything not answered 200 for days.
 */
export function whatsAppReceivers({ em, jobs, services }: RouteDeps): Router {
  const router = express.Router();
  const credentialsOf = async (channelId: string | undefined): Promise<StoredCredentials | undefined> =>
    channelId !== undefined && isUuid(channelId)
      ? loadCredentials(em.fork(), services.get(WHATSAPP), channelId)
      : undefined;

  router.get(
    '/whatsapp/:channelId',
    asyncRoute(async (req, res) => {
      const mode = queryText(req.query['hub.mode']);
      const token = queryText(req.query['hub.verify_token']);
      const challenge = queryText(req.query['hub.challenge']);
      const credentials = await credentialsOf(req.params.channelId);
      const valid =
        credentials !== undefined &&
        mode === 'subscribe' &&
        token !== undefined &&
        isSameSecret(token, credentials.verifyToken);
      if (!valid || challenge === undefined) {
        req.log.warn(
          { channelId: req.params.channelId, mode, connected: credentials !== undefined },
          'whatsapp webhook verification refused',
        );
        throw new AppError(403, 'forbidden', VERIFICATION_REFUSED);
      }
      req.log.info({ channelId: req.params.channelId }, 'whatsapp webhook verified');
      res.status(200).type('text/plain').send(challenge);
    }),
  );

  router.post(
    '/whatsapp/:channelId',
    // Every content type, uncompressed or inflated by body-parser: the signature covers the bytes of the payload.
    express.raw({ type: () => true, limit: INBOUND_BODY_LIMIT }),
    asyncRoute(async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const credentials = await credentialsOf(req.params.channelId);
      if (!credentials || !isValidWebhookSignature(body, req.headers['x-hub-signature-256'], credentials.appSecret)) {
        req.log.warn(
          { channelId: req.params.channelId, connected: credentials !== undefined, bytes: body.length },
          'whatsapp webhook signature refused',
        );
        throw new AppError(401, 'unauthorized', SIGNATURE_REFUSED);
      }
      const stored = await storeInboundDelivery({ em: em.fork() }, jobs, credentials.channelId, body);
      req.log.info(
        { channelId: credentials.channelId, deliveryId: stored.id, duplicate: stored.duplicate, bytes: body.length },
        'whatsapp webhook stored',
      );
      res.status(200).json({ success: true, data: { received: true, duplicate: stored.duplicate } });
    }),
  );

  router.all('/whatsapp/:channelId', (_req, _res, next) => {
    next(
      new AppError(405, 'method_not_allowed', 'Use GET (verification) or POST (events) on this webhook URL.', {
        Allow: 'GET, POST',
      }),
    );
  });
  router.use(bodyError);
  return router;
}
