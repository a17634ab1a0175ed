import { isUuid } from '@switchboard/contract';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { AppError } from '../../kit/errors.js';
import type { RouteDeps } from '../../kit/implement.js';
import { storeWebhookReceipt } from './webhook-receipt.service.js';
import { isValidWebhookSignature, isSameSecret } from './webhook-signature.js';
import { failureBudget, type FailureBudget } from '../../kit/failure-budget.js';
import { loadSecret, WHATSAPP, type ChannelSecretName } from '../whatsapp/index.js';

/** Meta batches events, but a POST stays far below this; a larger body is refused before it is read whole. */
const INBOUND_BODY_LIMIT = '5mb';

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

/**
 * Meta's webhooks for a WhatsApp Cloud API channel, mounted under /webhooks (before the API's JSON parser and key
 * auth: the sender is authenticated by the verify token and the body signature instead):
 *
 * - `GET /whatsapp/:channelId`: the subscription check. `hub.mode=subscribe` and the channel's verify token → 200
 *   with `hub.challenge` as text/plain; anything else, an unknown or unconnected channel included → 403.
 * - `POST /whatsapp/:channelId`: `X-Hub-Signature-256` checked on the exact bytes received; missing or wrong → 401
 *   and nothing stored. A valid POST is stored and queued (webhook-receipt.service.ts) and answered 200 at
 *   once, whatever it holds: a body that is not JSON is stored too, and skipped by the job with a log line, since
 *   Meta would redeliver anything not answered 200 for days.
 */
/**
 * Refused verifications and signatures per client address and instance before the address gets 429 without any
 * lookup: Meta signs every POST, so only a prober or a misconfigured sender fails at all.
 */
const INBOUND_FAILURES = { points: 30, durationSeconds: 60 } as const;

type SecretOf = (channelId: string, name: ChannelSecretName) => Promise<string | undefined>;
type Refuse = (req: Request, error: AppError) => Promise<never>;

/** A refusal (403, 401) counted against the sender's address; its budget spent, the next request is a 429. */
function refusalOf(failures: FailureBudget): Refuse {
  return async (req: Request, error: AppError) => {
    await failures.failed(req.ip ?? '');
    throw error;
  };
}

/** body-parser's refusals of a webhook body, in the envelope; an oversized body counts as a failure. */
function bodyErrorOf(failures: FailureBudget) {
  return function bodyError(error: unknown, req: Request, _res: Response, next: NextFunction) {
    const { type } = (error ?? {}) as { type?: string };
    if (type !== 'entity.too.large') return next(error);
    failures
      .failed(req.ip ?? '')
      .then(
        () => next(new AppError(413, 'payload_too_large', `The webhook body exceeds the ${INBOUND_BODY_LIMIT} limit.`)),
        next,
      );
  };
}

function verifySubscription(failures: FailureBudget, secretOf: SecretOf, refuse: Refuse) {
  return asyncRoute(async (req, res) => {
    await failures.check(req.ip ?? '');
    const mode = queryText(req.query['hub.mode']);
    const token = queryText(req.query['hub.verify_token']);
    const challenge = queryText(req.query['hub.challenge']);
    const verifyToken = await secretOf(req.params.channelId!, 'verifyToken');
    const valid =
      verifyToken !== undefined && mode === 'subscribe' && token !== undefined && isSameSecret(token, verifyToken);
    if (!valid || challenge === undefined) {
      req.log.warn(
        { channelId: req.params.channelId, mode, connected: verifyToken !== undefined },
        'whatsapp webhook verification refused',
      );
      return refuse(req, new AppError(403, 'forbidden', VERIFICATION_REFUSED));
    }
    req.log.info({ channelId: req.params.channelId }, 'whatsapp webhook verified');
    res.status(200).type('text/plain').send(challenge);
  });
}

const methodNotAllowed: RequestHandler = (_req, _res, next) => {
  next(
    new AppError(405, 'method_not_allowed', 'Use GET (verification) or POST (events) on this webhook URL.', {
      Allow: 'GET, POST',
    }),
  );
};

export function whatsAppReceivers({ em, jobs, services }: RouteDeps): Router {
  const router = express.Router();
  const failures = failureBudget('webhook refusals', INBOUND_FAILURES.points, INBOUND_FAILURES.durationSeconds);
  const secretOf = (channelId: string, name: ChannelSecretName) =>
    isUuid(channelId) ? loadSecret(em.fork(), services.get(WHATSAPP), channelId, name) : Promise.resolve(undefined);

  /** Whether the body is signed with the channel's app secret: the kept one, or else the stored one (kept then). */
  async function signedBy(channelId: string, body: Buffer, signature: string | string[] | undefined) {
    const kept = services.get(WHATSAPP).appSecrets.get(channelId);
    if (kept !== undefined && isValidWebhookSignature(body, signature, kept)) return true;
    const stored = await secretOf(channelId, 'appSecret');
    if (stored === undefined) return false;
    services.get(WHATSAPP).appSecrets.set(channelId, stored);
    return isValidWebhookSignature(body, signature, stored);
  }

  const refuse = refusalOf(failures);

  /**
   * What can be refused before a byte of the body is read: an address whose failure budget is spent, a POST without
   * `X-Hub-Signature-256`, a channel that is not connected (or does not exist). The last two get the signature's
   * refusal, so channel ids cannot be probed.
   */
  const precheck: RequestHandler = (req, _res, next) => {
    precheckOf(req).then(() => next(), next);
  };
  async function precheckOf(req: Request) {
    await failures.check(req.ip ?? '');
    const channelId = req.params.channelId!;
    const signed = req.headers['x-hub-signature-256'] !== undefined;
    const kept = services.get(WHATSAPP).appSecrets;
    let connected = kept.has(channelId);
    if (!connected) {
      const stored = await secretOf(channelId, 'appSecret');
      if (stored !== undefined) kept.set(channelId, stored);
      connected = stored !== undefined;
    }
    if (!signed || !connected) {
      req.log.warn({ channelId, signed, connected }, 'whatsapp webhook refused before its body');
      return refuse(req, new AppError(401, 'unauthorized', SIGNATURE_REFUSED));
    }
  }

  const bodyError = bodyErrorOf(failures);

  router.get('/whatsapp/:channelId', verifySubscription(failures, secretOf, refuse));

  router.post(
    '/whatsapp/:channelId',
    precheck,
    // Every content type, uncompressed or inflated by body-parser: the signature covers the bytes of the payload.
    express.raw({ type: () => true, limit: INBOUND_BODY_LIMIT }),
    bodyError,
    asyncRoute(async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const channelId = req.params.channelId!;
      if (!(await signedBy(channelId, body, req.headers['x-hub-signature-256']))) {
        req.log.warn({ channelId, bytes: body.length }, 'whatsapp webhook signature refused');
        return refuse(req, new AppError(401, 'unauthorized', SIGNATURE_REFUSED));
      }
      const stored = await storeWebhookReceipt({ em: em.fork() }, jobs, channelId, body);
      req.log.info(
        { channelId, receiptId: stored.id, duplicate: stored.duplicate, bytes: body.length },
        'whatsapp webhook stored',
      );
      res.status(200).json({ success: true, data: { received: true, duplicate: stored.duplicate } });
    }),
  );

  router.all('/whatsapp/:channelId', methodNotAllowed);
  return router;
}
