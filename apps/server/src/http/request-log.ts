import type { Express, NextFunction, Request, Response } from 'express';
import type { Logger } from '../logger.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id (request-id.ts): the caller's X-Request-Id when sane, else a new UUID. */
      id: string;
      /** The app's logger with this request's id as a top-level `requestId` field. */
      log: Logger;
    }
  }
}

/**
 * A media link's path is its own credential (`/media/<token>` opens the file without a key). Matched whatever its
 * case, as Express routes it (`/MEDIA/<token>` opens the file too).
 */
const CREDENTIAL_PATH = /^(\/media\/)[^?]+/i;
/** Query parameters whose values are credentials (`token`, `hub.verify_token`, `api_key`, `secret`, …). */
const CREDENTIAL_PARAM = /token|key|secret|password|signature|auth/i;
const REDACTED = '[redacted]';

/** The URL as it may be logged: a media link's token and credential-like query values replaced by `[redacted]`. */
export function loggedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(CREDENTIAL_PATH, `$1${REDACTED}`);
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && CREDENTIAL_PARAM.test(name) ? `${name}=${REDACTED}` : pair;
    });
  return `${path}?${query.join('&')}`;
}

/** 503 is an outage the outage monitor already logs once, not a fault of this request. */
function levelOf(status: number): 'info' | 'warn' | 'error' {
  if (status >= 500 && status !== 503) return 'error';
  return status >= 400 ? 'warn' : 'info';
}

/**
 * One line per request when its reply is finished (`request completed`) or its connection closed before that
 * (`request aborted`, or `stream closed` for a live stream): method, redacted URL, status, reply length and time
 * taken. Never the headers either way: requests carry API keys and session cookies, replies set them.
 */
function logOutcome(logger: Logger, req: Request, res: Response, started: number) {
  const status = res.statusCode;
  const length = res.getHeader('content-length');
  const line = {
    requestId: req.id,
    req: { method: req.method, url: loggedUrl(req.originalUrl) },
    res: { statusCode: status, length: length === undefined ? undefined : Number(length) },
    responseTime: Math.round(performance.now() - started),
  };
  if (res.writableFinished) logger[levelOf(status)](line, 'request completed');
  // A live stream (events/stream) ends when its client goes: that is how it is used, not a fault.
  else if (String(res.getHeader('content-type')).startsWith('text/event-stream')) logger.info(line, 'stream closed');
  else logger.warn(line, 'request aborted');
}

/**
 * Request logging without a logger per request: `req.log` is a child logger made the first time something logs
 * for the request (most requests never do), and the outcome line goes through the app's logger directly.
 */
export function requestLogging(app: Express, logger: Logger) {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request): Logger {
      const log = logger.child({ requestId: this.id });
      Object.defineProperty(this, 'log', { value: log, configurable: true });
      return log;
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('close', () => logOutcome(logger, req, res, started));
    next();
  };
}
