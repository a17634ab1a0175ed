import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { RATE_CLASSES, type AccessRule, type EndpointMetadata, type RateClass } from './access.js';
import { ERROR_STATUS_DESCRIPTIONS, errorEnvelope, type ErrorStatus } from './errors.js';
import { toQuerySchema } from './query.js';

const c = initContract();

/** Failures every authenticated endpoint can give, whatever it does. */
const ALWAYS: readonly ErrorStatus[] = [400, 401, 403, 413, 415, 429, 500];

export interface EndpointDefinition<P extends z.AnyZodObject, R extends z.ZodTypeAny> {
  /** Dotted name, e.g. `workspace.contacts.list`; the SDK method and operationId derive from it. */
  operation: string;
  path: string;
  summary: string;
  description?: string;
  params: P;
  response: R;
  rateClass: RateClass;
  access: AccessRule;
  /** Statuses beyond the ones every endpoint has (e.g. 404). */
  errors?: readonly ErrorStatus[];
  /** A request body that works against the demo data; feeds OpenAPI examples and the Postman collection. */
  example: z.input<P>;
}

function errorResponses(extra: readonly ErrorStatus[]) {
  const statuses = [...new Set([...ALWAYS, ...extra])].sort();
  return Object.fromEntries(
    statuses.map((status) => [status, errorEnvelope.describe(ERROR_STATUS_DESCRIPTIONS[status])]),
  ) as Record<ErrorStatus, typeof errorEnvelope>;
}

/** Who may call, in words, for the OpenAPI description. */
function accessText(access: AccessRule): string {
  if (access.scope === 'workspace') return 'Any user’s API key; data is limited to the channels the key’s user is authorized for.';
  const permissions = access.anyPermission?.length ? ` holding one of ${access.anyPermission.map((p) => `\`${p}\``).join(', ')}` : '';
  return `Needs the API key of a user with platform-level access${permissions}.`;
}

/**
 * One endpoint, defined once: yields the POST route (JSON body) and the GET route (same parameters in the
 * query string, coerced), both carrying the metadata the server's guards, rate limiter and exporters read.
 */
export function endpoint<P extends z.AnyZodObject, R extends z.ZodTypeAny>(def: EndpointDefinition<P, R>) {
  const metadata: EndpointMetadata = {
    operation: def.operation,
    rateClass: def.rateClass,
    access: def.access,
    example: def.example as Record<string, unknown>,
  };
  const responses = { 200: def.response, ...errorResponses(def.errors ?? []) };
  const { points, durationSeconds } = RATE_CLASSES[def.rateClass];
  const description = [
    def.description ?? def.summary,
    `Rate limit class: \`${def.rateClass}\` (${points} requests per ${durationSeconds} s per API user).`,
    accessText(def.access),
    'Accepts POST with a JSON body or GET with the same parameters in the query string.',
  ].join('\n\n');
  return c.router({
    post: {
      method: 'POST',
      path: def.path,
      body: def.params,
      responses,
      summary: def.summary,
      description,
      metadata,
      strictStatusCodes: true,
    },
    get: {
      method: 'GET',
      path: def.path,
      query: toQuerySchema(def.params),
      responses,
      summary: `${def.summary} (GET)`,
      description,
      metadata,
      strictStatusCodes: true,
    },
  });
}

export type Endpoint = ReturnType<typeof endpoint>;
