import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * Browsers may call the API only from the origins in CORS_ORIGINS (the `cors` package: preflight, Vary, exposed
 * headers). No credentials: API keys travel in headers, never cookies. Without CORS_ORIGINS no CORS header is sent
 * and a preflight gets the API's ordinary 405.
 */
export function corsFor(origins: string[]): RequestHandler {
  return cors({
    origin: origins,
    methods: ['GET', 'POST'],
    allowedHeaders: ['Content-Type', 'X-API-Key', 'Authorization', 'X-Request-Id'],
    exposedHeaders: [
      'X-Request-Id',
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
    ],
    maxAge: 600,
  });
}
