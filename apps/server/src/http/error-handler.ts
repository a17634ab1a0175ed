import type { ErrorEnvelope } from '@switchboard/contract';
import { RequestValidationError } from '@ts-rest/express';
import type { NextFunction, Request, Response } from 'express';
import { AfterEffectError, AppError, ValidationError } from '../kit/errors.js';
import { KEEP_IDEMPOTENT_REPLY } from './idempotency.js';
import type { Logger } from '../logger.js';
import { bodyParserError } from './body.js';
import type { OutageMonitor } from './outage.js';
import { zodIssues } from './validation.js';

export function validationError(error: RequestValidationError): ValidationError {
  const zodError = error.body ?? error.query ?? error.pathParams ?? error.headers;
  return new ValidationError(zodError ? zodIssues(zodError, error.body ? 'body' : 'query') : []);
}

function toAppError(error: unknown, outages: OutageMonitor, requestLog: Logger): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof RequestValidationError) return validationError(error);
  return bodyParserError(error) ?? outages.unavailable(error, requestLog);
}

/**
 * The one place failures become the envelope. An unreachable dependency is a 503 with Retry-After; anything
 * else unexpected is a 500 that names the request id, never a stack.
 */
export function errorHandler(logger: Logger, outages: OutageMonitor) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // req.log already carries the request id as a top-level field; only the app logger needs it added.
    const requestLog = req.log ?? logger.child({ requestId: req.id });
    const known = toAppError(error, outages, requestLog);
    const failure: AppError =
      known ??
      new AppError(500, 'internal_error', `Internal server error. Quote request id ${req.id} when reporting it.`);
    if (!known) requestLog.error({ err: error }, 'unhandled error');
    if (res.headersSent) return res.end();
    if (failure instanceof AfterEffectError) res.locals[KEEP_IDEMPOTENT_REPLY] = true;
    const body: ErrorEnvelope = { success: false, error: failure.code, message: failure.message };
    res.status(failure.status).set(failure.headers).json(body);
  };
}
