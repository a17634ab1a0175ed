import type { EndpointEffects } from './effects.js';
import type { FailureExample } from './errors.js';

export const RATE_CLASSES = {
  api_read: { points: 120, durationSeconds: 60 },
  api_write: { points: 30, durationSeconds: 60 },
  /**
   * Single messages: chat/templates/send, chat/message/send, chat/message/cancel, and a customer's played on the
   * sandbox (sandbox/receive) (RATE_LIMIT_API_MESSAGE).
   */
  api_message: { points: 600, durationSeconds: 60 },
  api_admin_write: { points: 20, durationSeconds: 60 },
} as const;
export type RateClass = keyof typeof RATE_CLASSES;

export const KNOWN_PERMISSIONS = [
  'platform:view',
  'platform:edit',
  'platform:manage',
  'instance:view',
  'settings:api',
] as const;
export type Permission = (typeof KNOWN_PERMISSIONS)[number];

/**
 * Who may call an endpoint. `workspace`: any user's key, data scoped to the user's channels.
 * `platform`: a key of a user with platform-level access, optionally holding one of `anyPermission`.
 */
export type AccessRule =
  { readonly scope: 'workspace' } | { readonly scope: 'platform'; readonly anyPermission?: readonly Permission[] };

/** What the server's guards, the rate limiter and the OpenAPI exporter read from every route. */
export interface EndpointMetadata {
  readonly operation: string;
  readonly rateClass: RateClass;
  readonly access: AccessRule;
  readonly example: Record<string, unknown>;
  /** Further working requests by name (chat/message/send's kinds), each shown and sent on its own. */
  readonly moreExamples?: Readonly<Record<string, { summary: string; value: Record<string, unknown> }>>;
  /** Failures worth an example in the OpenAPI, by name (e.g. `channelIdRequired`). */
  readonly failureExamples: Readonly<Record<string, FailureExample>>;
  /** Declared where the path's last word cannot tell (`manage`, `sync`, …): see endpointEffects. */
  readonly effects?: EndpointEffects;
}
