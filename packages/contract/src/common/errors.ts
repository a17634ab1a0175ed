import { z } from 'zod';
import { named } from './openapi-meta.js';

/**
 * Stable, machine-readable failure codes and the HTTP status each one comes with. `message` is for people;
 * `error` is for code: clients switch on it.
 */
export const ERROR_CODE_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  no_active_subscription: 400,
  // Refusals from an outside messaging provider (WhatsApp Cloud API), mapped by its adapter.
  provider_rejected: 400,
  // A session message outside the 24-hour customer-service window (chat/message/send): send a template instead.
  session_window_closed: 400,
  // A MARKETING template to a contact who opted out (STOP) or is blocked (chat/templates/send).
  contact_unsubscribed: 400,
  contact_blocked: 400,
  // chat/message/cancel of a message that is not (or no longer) scheduled.
  message_not_scheduled: 400,
  // chat/templates/manage: the name exists in that language; the template's state or Meta's edit budget forbids the
  // edit; a broadcast or scheduled message still needs it. Broadcasts and scheduled sends need an approved template.
  template_exists: 400,
  template_not_editable: 400,
  template_edit_limit: 400,
  template_in_use: 400,
  template_not_approved: 400,
  // webhooks/manage: the platform already has an endpoint at this URL.
  duplicate_url: 400,
  unauthorized: 401,
  forbidden: 403,
  // The key's platform is switched off (platforms.is_active = false): every endpoint, until it is switched on.
  platform_inactive: 403,
  not_found: 404,
  no_channel: 404,
  template_not_found: 404,
  user_not_found: 404,
  addon_not_found: 404,
  ticket_not_found: 404,
  contact_not_found: 404,
  label_not_found: 404,
  webhook_not_found: 404,
  delivery_not_found: 404,
  automation_not_found: 404,
  broadcast_not_found: 404,
  // A message without a customer's file (chat/media/get), or a media link that expired or was altered.
  media_not_found: 404,
  // A contact without messages has no conversation (chat/conversations/manage).
  conversation_not_found: 404,
  note_not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  request_headers_too_large: 431,
  internal_error: 500,
  provider_unauthorized: 502,
  service_unavailable: 503,
  provider_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODE_STATUS;
export const ERROR_CODES = Object.keys(ERROR_CODE_STATUS) as [ErrorCode, ...ErrorCode[]];
export type ErrorStatus = (typeof ERROR_CODE_STATUS)[ErrorCode];

/** HTTP statuses an endpoint can fail with, and what each means for callers (feeds the OpenAPI). */
export const ERROR_STATUS_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400:
    'Missing or invalid parameters (`invalid_request`, naming every offending field), malformed JSON ' +
    '(`invalid_json`)',
  401: 'Missing, malformed, unknown or revoked API key, or a key sent in the query string or body (`unauthorized`)',
  403:
    'Authenticated but not allowed: missing permission, no platform-level access, or another tenant’s resource ' +
    '(`forbidden`); the key’s platform is inactive (`platform_inactive`)',
  404: 'The addressed resource does not exist in this tenant',
  405: 'The path exists but not with this HTTP method (`method_not_allowed`)',
  409: 'A request with this Idempotency-Key is still running (`idempotency_key_in_progress`); retry shortly',
  413: 'Request body larger than 1 MB (`payload_too_large`)',
  415: 'POST body that is not JSON (`unsupported_media_type`)',
  422: 'This Idempotency-Key was used with different parameters (`idempotency_key_reused`)',
  429: 'Rate limit exceeded (`rate_limited`); see `Retry-After`',
  431: 'Request line and headers larger than 16 KB (`request_headers_too_large`); send long parameters in a POST body',
  500: 'Unexpected server error (`internal_error`); quote the X-Request-Id when reporting it',
  502: 'The messaging provider refused this channel’s credentials (`provider_unauthorized`)',
  503:
    'A dependency is temporarily unavailable: the database (`service_unavailable`) or the messaging provider ' +
    '(`provider_unavailable`); retry after `Retry-After` seconds',
};

/** A failure the OpenAPI shows as an example of its status: how a rule that no schema can state is enforced. */
export interface FailureExample {
  summary: string;
  status: ErrorStatus;
  error: ErrorCode;
  message: string;
  /**
   * The parameters that get this reply from the demo data, when it is not the operation's example without the
   * field the message names (a rule of stored data, such as a contact who never wrote).
   */
  request?: Record<string, unknown>;
}

const pascal = (code: string) => code.replace(/(^|_)(\w)/g, (_, _sep: string, letter: string) => letter.toUpperCase());

/**
 * The failure envelope `{success: false, error, message}` with `error` narrowed to `codes`. Named after its codes
 * (`TicketNotFoundError`, `InvalidRequestOrInvalidJsonError`) so generated clients get one type per set.
 */
export function errorEnvelope<C extends ErrorCode>(codes: readonly [C, ...C[]], description = 'Failure envelope') {
  const name = codes.map(pascal).join('Or');
  return named(
    name.endsWith('Error') ? name : `${name}Error`,
    z
      .object({
        success: z.literal(false),
        error: z.enum(codes).describe('Stable snake_case code; switch on it'),
        message: z.string().describe('Human-readable explanation; for 400 it names every offending field'),
      })
      .describe(description),
  );
}
/** Any failure reply of the API. */
export const anyErrorEnvelope = named('ErrorEnvelope', errorEnvelope(ERROR_CODES));
export type ErrorEnvelope = z.infer<typeof anyErrorEnvelope>;
