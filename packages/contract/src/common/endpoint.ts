import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { RATE_CLASSES, type AccessRule, type EndpointMetadata, type RateClass } from './access.js';
import type { EndpointEffects } from './effects.js';
import {
  ERROR_CODE_STATUS,
  ERROR_STATUS_DESCRIPTIONS,
  errorEnvelope,
  type ErrorCode,
  type ErrorStatus,
  type FailureExample,
} from './errors.js';
import { paramsObject, type ParamsSchema } from './field-rules.js';
import { toQuerySchema } from './query.js';
import { CHANNEL_REQUIRED_EXAMPLE } from './schemas.js';
import { strictParams } from './strictness.js';

const c = initContract();

/** Failures every authenticated endpoint can give, whatever it does. */
const ALWAYS = [
  'invalid_request',
  'invalid_json',
  'unauthorized',
  'forbidden',
  'platform_inactive',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'request_headers_too_large',
  'internal_error',
  'service_unavailable',
] as const satisfies readonly ErrorCode[];
/** Writes also honour an `Idempotency-Key` header, whose misuse has codes of its own. */
const WRITES = ['idempotency_key_in_progress', 'idempotency_key_reused'] as const satisfies readonly ErrorCode[];
const isWrite = (rateClass: RateClass) => rateClass !== 'api_read';

/** The codes an endpoint of rate class `K` with its own failures `E` can give: what the SDK's types narrow to. */
type EndpointErrorCode<E extends ErrorCode, K extends RateClass> =
  (typeof ALWAYS)[number] | (K extends 'api_read' ? never : (typeof WRITES)[number]) | E;
type StatusOf<C extends ErrorCode> = (typeof ERROR_CODE_STATUS)[C];
/** Per status, the failure envelope with `error` narrowed to the codes of that status among `C`. */
type ErrorResponses<C extends ErrorCode> = {
  [S in StatusOf<C>]: z.ZodType<{
    success: false;
    error: { [K in C]: StatusOf<K> extends S ? K : never }[C];
    message: string;
  }>;
};

export interface EndpointDefinition<
  P extends ParamsSchema,
  R extends z.ZodTypeAny,
  E extends ErrorCode,
  K extends RateClass,
> {
  /** Dotted name, e.g. `workspace.contacts.list`; the SDK method and operationId derive from it. */
  operation: string;
  path: string;
  summary: string;
  description?: string;
  params: P;
  response: R;
  rateClass: K;
  access: AccessRule;
  /** Failure codes beyond the ones every endpoint has (e.g. `ticket_not_found`); each brings its status. */
  errors?: readonly E[];
  /**
   * A request body that works against the demo data, with the ids of EXAMPLE_IDS; feeds the OpenAPI examples
   * and the Postman collection (where the ids become `{{variables}}`).
   */
  example: z.input<P>;
  /**
   * Further working requests, by name, where one example cannot show the forms a body takes (chat/message/send's
   * buttons, list, reaction…): OpenAPI examples of their form, and requests of their own in the Postman collection.
   */
  moreExamples?: Record<string, { summary: string; value: z.input<P> }>;
  /**
   * Failures of rules the schema cannot state (they depend on stored data), shown as OpenAPI examples by name; a
   * workspace endpoint gets `channelIdRequired` without asking.
   */
  failureExamples?: Record<string, FailureExample>;
  /**
   * What a call does (reads, removes, reaches a customer…), where the path's last word cannot tell: `manage`, `sync`
   * and the like (see endpointEffects).
   */
  effects?: EndpointEffects;
}

/** One failure response per status, its `error` narrowed to the codes this endpoint can give with that status. */
function errorResponses<C extends ErrorCode>(codes: readonly C[]): ErrorResponses<C> {
  const byStatus = new Map<ErrorStatus, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODE_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const statuses = [...byStatus.keys()].sort();
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      errorEnvelope(byStatus.get(status) as [ErrorCode, ...ErrorCode[]], ERROR_STATUS_DESCRIPTIONS[status]),
    ]),
  ) as unknown as ErrorResponses<C>;
}

/** Who may call, in words, for the OpenAPI description. */
function accessText(access: AccessRule): string {
  if (access.scope === 'workspace')
    return 'Any user’s API key; data is limited to the channels the key’s user is authorized for.';
  const permissions = access.anyPermission?.length
    ? ` holding one of ${access.anyPermission.map((p) => `\`${p}\``).join(', ')}`
    : '';
  return `Needs the API key of a user with platform-level access${permissions}.`;
}

/**
 * One endpoint, defined once: yields the POST route (JSON body) and the GET route (same parameters in the
 * query string, coerced), both carrying the metadata the server's guards, rate limiter and exporters read.
 */
export function endpoint<
  P extends ParamsSchema,
  R extends z.ZodTypeAny,
  E extends ErrorCode = never,
  K extends RateClass = RateClass,
>(def: EndpointDefinition<P, R, E, K>) {
  const metadata: EndpointMetadata = {
    operation: def.operation,
    rateClass: def.rateClass,
    access: def.access,
    example: def.example as Record<string, unknown>,
    ...(def.moreExamples && { moreExamples: def.moreExamples as EndpointMetadata['moreExamples'] }),
    failureExamples: {
      ...('channelId' in paramsObject(def.params)!.shape && { channelIdRequired: CHANNEL_REQUIRED_EXAMPLE }),
      ...def.failureExamples,
    },
    ...(def.effects && { effects: def.effects }),
  };
  const codes: EndpointErrorCode<E, K>[] = [
    ...ALWAYS,
    ...(isWrite(def.rateClass) ? WRITES : []),
    ...(def.errors ?? []),
  ] as EndpointErrorCode<E, K>[];
  const responses = { 200: def.response, ...errorResponses(codes) };
  const params = strictParams(def.params);
  const { points, durationSeconds } = RATE_CLASSES[def.rateClass];
  const description = [
    def.description ?? def.summary,
    `Rate limit class: \`${def.rateClass}\` (${points} requests per ${durationSeconds} s per API user).`,
    accessText(def.access),
    'Accepts POST with a JSON body or GET with the same parameters in the query string.',
  ].join('\n\n');
  const routes = {
    post: {
      method: 'POST' as const,
      path: def.path,
      body: params,
      responses,
      summary: def.summary,
      description,
      metadata,
      strictStatusCodes: true as const,
    },
    get: {
      method: 'GET' as const,
      path: def.path,
      query: toQuerySchema(params),
      responses,
      summary: `${def.summary} (GET)`,
      description,
      metadata,
      strictStatusCodes: true as const,
    },
  };
  // ts-rest checks a route's headers through a conditional type that cannot resolve while the error codes are a
  // type parameter; these routes declare no headers, and each endpoint's type is checked where it is concrete.
  return c.router(routes as never) as typeof routes;
}

export type Endpoint = ReturnType<typeof endpoint>;
