import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../kit/errors.js';
import type { Logger } from '../logger.js';
import { isDependencyOutage, outageLog } from '../outages.js';

const RETRY_AFTER_SECONDS = 5;

class ServiceUnavailableError extends AppError {
  constructor() {
    super(503, 'service_unavailable', `The service is temporarily unavailable. Retry in ${RETRY_AFTER_SECONDS} s.`, {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  }
}

export interface OutageMonitor {
  /**
   * Call with a request's failure and that request's logger: a dependency outage becomes a 503 (logged once when it
   * starts, through `requestLog`), else undefined.
   */
  unavailable(error: unknown, requestLog: Logger): ServiceUnavailableError | undefined;
  /** Middleware: an API reply below 500 means the database answered again; logs the recovery once. */
  recovery(req: Request, res: Response, next: NextFunction): void;
}

/** One warn line per transition (down, up), not a stack per request; state lives per app, not per module. */
export function createOutageMonitor(logger: Logger): OutageMonitor {
  const log = outageLog(logger, {
    down: 'database unavailable: answering 503 until it is back',
    up: 'database available again',
  });
  return {
    unavailable(error, requestLog) {
      if (!isDependencyOutage(error)) return undefined;
      const { code, message } = error as { code?: string; message: string };
      log.down({ code, reason: message }, requestLog);
      return new ServiceUnavailableError();
    },
    recovery(req, res, next) {
      res.on('finish', () => {
        if (res.statusCode < 500) log.up(() => req.log);
      });
      next();
    },
  };
}
