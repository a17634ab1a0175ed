import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { AppError } from '../kit/errors.js';

const BODY_LIMIT = '1mb';

function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  return req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/** Writes must be JSON: a POST body of any other type gets 415 before anything reads it. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction) {
  if (req.method === 'POST' && hasBody(req) && !req.is(['application/json', 'application/*+json'])) {
    return next(
      new AppError(415, 'unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.'),
    );
  }
  next();
}

export const jsonBody: RequestHandler = express.json({
  limit: BODY_LIMIT,
  type: ['application/json', 'application/*+json'],
});

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  code?: string;
}

/** body-parser's failures as API errors: malformed JSON or compression 400, too large 413, bad encoding 415. */
export function bodyParserError(error: unknown): AppError | undefined {
  const { type, code } = (error ?? {}) as BodyParserError;
  // zlib's Z_DATA_ERROR and kin: the body is not what its Content-Encoding says.
  if (type === undefined && code?.startsWith('Z_')) {
    return new AppError(
      400,
      'invalid_request',
      'The request body could not be decompressed; it does not match its Content-Encoding.',
    );
  }
  switch (type) {
    case 'entity.parse.failed':
      return new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new AppError(413, 'payload_too_large', `The request body exceeds the ${BODY_LIMIT} limit.`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, 'unsupported_media_type', 'Send the request body as UTF-8 JSON.');
    case 'request.aborted':
    case 'request.size.invalid':
      return new AppError(400, 'invalid_request', 'The request body was incomplete.');
    default:
      return undefined;
  }
}
