import { z } from 'zod';

/** Stable, machine-readable failure codes. `message` is for people; `error` is for code. */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_json',
  'unauthorized',
  'forbidden',
  'not_found',
  'no_channel',
  'template_not_found',
  'user_not_found',
  'addon_not_found',
  'ticket_not_found',
  'no_active_subscription',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'method_not_allowed',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.string().describe(`Stable snake_case code: ${ERROR_CODES.join(', ')}`),
    message: z.string().describe('Human-readable explanation; for 400 it names every offending field'),
  })
  .describe('Failure envelope');
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** HTTP statuses an endpoint can fail with, and what each means for callers (feeds the OpenAPI). */
export const ERROR_STATUS_DESCRIPTIONS = {
  400: 'Missing or invalid parameters (`invalid_request`), malformed JSON (`invalid_json`)',
  401: 'Missing, malformed, unknown or revoked API key, or a key sent in the query string or body (`unauthorized`)',
  403: 'Authenticated but not allowed: missing permission, no platform-level access, or another tenant’s resource (`forbidden`)',
  404: 'The addressed resource does not exist in this tenant',
  405: 'The path exists but not with this HTTP method (`method_not_allowed`)',
  413: 'Request body larger than 1 MB (`payload_too_large`)',
  415: 'POST body that is not JSON (`unsupported_media_type`)',
  429: 'Rate limit exceeded (`rate_limited`); see `Retry-After`',
  500: 'Unexpected server error (`internal_error`); quote the X-Request-Id when reporting it',
} as const;
export type ErrorStatus = keyof typeof ERROR_STATUS_DESCRIPTIONS;
