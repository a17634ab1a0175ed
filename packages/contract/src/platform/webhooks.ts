import { z } from 'zod';
import {
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  listEnvelope,
  named,
  okEnvelope,
  pageEnvelope,
  timestampSchema,
  uuidParam,
  withFieldRules,
  withOpenApi,
  type FieldProblem,
} from '../common/index.js';
import { platformIdParam } from './platforms.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-events.js';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
/** How long a replaced signing secret keeps signing beside the new one, so receivers can switch without a gap. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
export const WEBHOOK_DELIVERIES_MAX_LIMIT = 100;
/** The most webhook endpoints one platform may have: each event is one delivery per endpoint. */
export const WEBHOOK_ENDPOINTS_PER_PLATFORM = 20;
export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'paused', 'disabled'] as const;
/** The most events one batched POST carries (an endpoint with `batch: true`). */
export const WEBHOOK_BATCH_MAX = 100;

const isEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/**
 * Why a list of event types is not acceptable (unknown names, or none), or undefined. Shared with the CLI and the
 * portal so every door refuses the same way.
 */
export function webhookEventsProblem(events: readonly string[]): string | undefined {
  const unknown = events.filter((event) => !isEventType(event));
  if (unknown.length)
    return `unknown event type ${unknown.map((e) => `"${e}"`).join(', ')}; known: ${WEBHOOK_EVENT_TYPES.join(', ')}`;
  return events.length ? undefined : 'must name at least one event type';
}

/** `"a,b"` or `["a", "b"]` (GET may repeat the key) → the distinct names in order. */
function splitEvents(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = (Array.isArray(value) ? value : value.split(',')).map((name) => name.trim()).filter(Boolean);
  return [...new Set(names)];
}

const eventsParam: z.ZodType<WebhookEventType[] | undefined, z.ZodTypeDef, string | string[] | undefined> = z
  .union([z.string(), z.array(z.string())], {
    errorMap: () => ({ message: 'must be a comma-separated string or an array of event types' }),
  })
  .optional()
  .transform(splitEvents)
  .superRefine((events, ctx) => {
    const problem = events && webhookEventsProblem(events);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  })
  .transform((events) => events as WebhookEventType[] | undefined)
  .describe(
    `Event types to receive, a non-empty subset of: ${WEBHOOK_EVENT_TYPES.join(', ')} (array, or comma-separated)`,
  );

export const webhookEndpointSchema = named(
  'WebhookEndpoint',
  z.object({
    id: idSchema,
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean().describe('A disabled endpoint receives nothing; its pending deliveries fail'),
    batch: z
      .boolean()
      .describe(
        `true: events arrive in batches, one POST carrying up to ${WEBHOOK_BATCH_MAX} as a JSON array, signed once`,
      ),
    status: z
      .enum(WEBHOOK_ENDPOINT_STATUSES)
      .describe(
        '`active` receives events; `paused`: `enabled` was set false; `disabled`: the server turned it off after ' +
          'every attempt failed for 24 hours (and emailed the platform’s owner); `enabled: true` turns either back on',
      ),
    previousSecretExpiresAt: timestampSchema
      .nullable()
      .describe('After a rotation: until when the replaced secret still signs beside the new one (null: one secret)'),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  }),
);
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
/** The endpoint as the reply of a create or a rotation gives it: with its new signing secret, shown this once. */
export type WebhookEndpointWithSecret = WebhookEndpoint & { secret: string };

export const webhookEndpointWithSecretSchema = named(
  'WebhookEndpointWithSecret',
  webhookEndpointSchema.extend({
    secret: z
      .string()
      .optional()
      .describe('The `whsec_…` signing secret: only in the reply of a create or a rotation, never again'),
  }),
);

export const webhookAttemptSchema = named(
  'WebhookAttempt',
  z.object({
    attempt: z.number().int().describe('1 for the first POST, 2 for the first retry, …'),
    statusCode: z.number().int().nullable().describe('The receiver’s HTTP status; null when none came back'),
    error: z
      .string()
      .nullable()
      .describe('Why the attempt failed (HTTP status and body start, timeout, refused destination)'),
    durationMs: z.number().int(),
    createdAt: timestampSchema,
  }),
);

export const webhookDeliverySchema = named(
  'WebhookDelivery',
  z.object({
    id: idSchema.describe('The delivery id, for `redeliver`'),
    endpointId: idSchema,
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    webhookId: z.string().describe('The `webhook-id` header, the same on every attempt and redelivery'),
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES)
      .describe('`pending` while attempts remain; `delivered` or `failed` is final'),
    nextAttemptAt: timestampSchema.nullable(),
    deliveredAt: timestampSchema.nullable(),
    attempts: z.array(webhookAttemptSchema).describe('Every POST so far, oldest first'),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  }),
);
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookManageResultSchema = named(
  'WebhookManageResult',
  z
    .union([webhookEndpointWithSecretSchema, webhookDeliverySchema])
    .describe('The endpoint (create, update, rotate, delete) or, for `redeliver`, the delivery'),
);

export const WEBHOOK_MANAGE_ACTIONS = ['create', 'update', 'delete', 'rotate'] as const;
export type WebhookManageAction = (typeof WEBHOOK_MANAGE_ACTIONS)[number];

const webhookManageFields = z.object({
  platformId: platformIdParam,
  action: z
    .enum(WEBHOOK_MANAGE_ACTIONS)
    .optional()
    .describe(
      '`create` an endpoint (`url`, `events`), `update` one (`endpointId` and the fields to change), `delete` it, or ' +
        '`rotate` its signing secret; left out (deprecated): create without `endpointId`, update with it',
    ),
  endpointId: uuidParam().optional().describe('The endpoint to update, delete or rotate (not with `create`)'),
  url: z
    .string()
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .url('must be an absolute URL')
    .optional()
    .describe('https:// URL receiving the events; it must not resolve to a private, loopback or link-local address'),
  events: eventsParam,
  description: z
    .string()
    .trim()
    .max(500, 'must be at most 500 characters')
    .nullable()
    .optional()
    .describe('For people; null clears it'),
  enabled: z.boolean().optional().describe('false stops deliveries to the endpoint; true resumes them'),
  batch: z
    .boolean()
    .optional()
    .describe(
      `true: deliver in batches, one POST carrying up to ${WEBHOOK_BATCH_MAX} events as a JSON array ` +
        '`[{ webhookId, type, timestamp, data }, …]`, signed once (verify with `verifyWebhookBatch`); false (the ' +
        'default): one POST per event',
    ),
  rotateSecret: withOpenApi(
    z
      .boolean()
      .optional()
      .describe('Deprecated, use `action: "rotate"`: true issues a new secret; the old one keeps signing for 24 h'),
    { deprecated: true },
  ),
  delete: withOpenApi(
    z.boolean().optional().describe('Deprecated, use `action: "delete"`: true deletes the endpoint and its deliveries'),
    { deprecated: true },
  ),
  redeliver: uuidParam()
    .optional()
    .describe('A delivery id (from webhooks/deliveries): queue one fresh attempt with the same `webhook-id`'),
});

/**
 * The typed forms of webhooks/manage (what the SDK accepts): `events` as a list of known event types, so a misspelt
 * one does not compile; the API itself also takes a comma-separated string.
 */
type WebhookManageInput = Omit<z.input<typeof webhookManageFields>, 'events'> & { events?: WebhookEventType[] };
/** The fields an update may change. */
type WebhookChanges = Pick<WebhookManageInput, 'url' | 'events' | 'description' | 'enabled' | 'batch'>;
/** None of the deprecated flags, nor `redeliver`: what every `action` form leaves out. */
type NoFlags = { rotateSecret?: undefined; delete?: undefined; redeliver?: undefined };
type NoChanges = { [K in keyof WebhookChanges]?: undefined };
/** A new endpoint: its `url` and `events` (the secret comes in the reply, once). */
export type WebhookCreateParams = Pick<WebhookManageInput, 'platformId' | 'description' | 'enabled' | 'batch'> &
  NoFlags & {
    action?: 'create';
    endpointId?: undefined;
    url: string;
    events: WebhookEventType[];
  };
/** A new secret for an endpoint (in the reply, once); the replaced one keeps signing for 24 h. */
export type WebhookRotateParams =
  | (Pick<WebhookManageInput, 'platformId'> & NoFlags & NoChanges & { action: 'rotate'; endpointId: string })
  | (Pick<WebhookManageInput, 'platformId'> &
      WebhookChanges & {
        /** @deprecated Use `action: "rotate"`. */
        rotateSecret: true;
        action?: undefined;
        endpointId: string;
        redeliver?: undefined;
        delete?: false;
      });
/** Update or delete an endpoint (no new secret). */
export type WebhookChangeParams =
  | (Pick<WebhookManageInput, 'platformId'> & WebhookChanges & NoFlags & { action: 'update'; endpointId: string })
  | (Pick<WebhookManageInput, 'platformId'> & NoFlags & NoChanges & { action: 'delete'; endpointId: string })
  | (Pick<WebhookManageInput, 'platformId'> &
      WebhookChanges & {
        action?: undefined;
        endpointId: string;
        /** @deprecated Use `action: "delete"`. */
        delete?: boolean;
        redeliver?: undefined;
        rotateSecret?: false;
      });
export type WebhookRedeliverParams = Pick<WebhookManageInput, 'platformId'> & {
  redeliver: string;
  action?: undefined;
};
export type WebhookManageParams =
  WebhookCreateParams | WebhookRotateParams | WebhookChangeParams | WebhookRedeliverParams;

type WebhookManageFields = z.output<typeof webhookManageFields>;
const WEBHOOK_CHANGES = ['url', 'events', 'description', 'enabled', 'batch'] as const;

/** What `action` needs and refuses: its endpoint (or none, to create), and no field of another action. */
function actionProblems(params: WebhookManageFields, action: WebhookManageAction): FieldProblem[] {
  const given = (field: keyof WebhookManageFields) => params[field] !== undefined;
  const refuse = (fields: readonly (keyof WebhookManageFields)[], problem: string) =>
    fields.filter(given).map((field) => ({ field, problem }));
  const flags = refuse(['rotateSecret', 'delete', 'redeliver'], `is not a parameter of action "${action}"`);
  if (action === 'create')
    return [
      ...(['url', 'events'] as const)
        .filter((field) => !given(field))
        .map((field) => ({ field, problem: 'is required to create an endpoint' })),
      ...refuse(['endpointId'], 'is not a parameter of action "create"'),
      ...flags,
    ];
  const endpoint = given('endpointId')
    ? []
    : [{ field: 'endpointId', problem: `is required to ${action} an endpoint` }];
  const changes = action === 'update' ? [] : refuse(WEBHOOK_CHANGES, `is not a parameter of action "${action}"`);
  return [...endpoint, ...changes, ...flags];
}

/** Which operation the parameters ask for (redeliver, create, delete, update), and what does not go with it. */
function webhookManageProblems(params: WebhookManageFields): FieldProblem[] {
  if (params.action !== undefined) return actionProblems(params, params.action);
  const given = (field: keyof WebhookManageFields) => params[field] !== undefined;
  const refuse = (fields: readonly (keyof WebhookManageFields)[], problem: string) =>
    fields.filter(given).map((field) => ({ field, problem }));
  if (given('redeliver'))
    return refuse(
      ['endpointId', ...WEBHOOK_CHANGES, 'rotateSecret', 'delete'],
      'cannot be combined with redeliver (the delivery names its endpoint)',
    );
  if (!given('endpointId')) {
    const missing = (['url', 'events'] as const).filter((field) => !given(field));
    return [
      ...missing.map((field) => ({ field, problem: 'is required to create an endpoint (no endpointId given)' })),
      ...refuse(['rotateSecret', 'delete'], 'applies to an existing endpoint: pass endpointId'),
    ];
  }
  return params.delete ? refuse([...WEBHOOK_CHANGES, 'rotateSecret'], 'cannot be combined with delete') : [];
}

/** The `action` form as the deprecated flags the service reads: one meaning, whichever form was sent. */
function resolveAction(params: WebhookManageFields): WebhookManageFields {
  if (params.action === 'delete') return { ...params, delete: true };
  if (params.action === 'rotate') return { ...params, rotateSecret: true };
  return params;
}

export const webhookManageParams = withFieldRules<WebhookManageParams>()(webhookManageFields, {
  sets: [['url', 'events'], ['endpointId'], ['redeliver']],
  check: webhookManageProblems,
  resolve: resolveAction,
});
export type WebhookManageValues = z.output<typeof webhookManageParams>;

export const webhookDeliveriesParams = z.object({
  platformId: platformIdParam,
  endpointId: uuidParam().describe('The endpoint whose delivery log to read'),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  page: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(1_000_000, 'must be at most 1000000')
    .default(1),
  limit: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(WEBHOOK_DELIVERIES_MAX_LIMIT, `must be at most ${WEBHOOK_DELIVERIES_MAX_LIMIT}`)
    .default(20)
    .describe(`Page size, 1..${WEBHOOK_DELIVERIES_MAX_LIMIT}`),
});
export type WebhookDeliveriesValues = z.output<typeof webhookDeliveriesParams>;

export const webhooksContract = {
  list: endpoint({
    operation: 'platform.webhooks.list',
    path: '/api/platform/v1/webhooks/list',
    summary: 'List the webhook endpoints of the platform',
    description:
      'Oldest first. Signing secrets are never listed: they appear once, in the reply that creates or rotates them.',
    params: z.object({
      platformId: platformIdParam,
      endpointId: uuidParam().optional().describe('Only this endpoint (none when it is not the platform’s)'),
    }),
    response: listEnvelope(webhookEndpointSchema),
    rateClass: 'api_read',
    access: { scope: 'platform' },
    example: { platformId: EXAMPLE_IDS.platformId },
  }),
  manage: endpoint({
    operation: 'platform.webhooks.manage',
    path: '/api/platform/v1/webhooks/manage',
    summary: 'Create, update, rotate the secret of, or delete a webhook endpoint; redeliver a delivery',
    description: [
      '`action: "create"`: a new endpoint (`url`, `events` required; message `Webhook endpoint created ' +
        'successfully`); the reply carries the new `whsec_…` `secret`, shown only this once.',
      '`action: "update"` with endpointId: changes `url`, `events`, `description`, `enabled`, `batch` (message ' +
        '`Webhook endpoint updated successfully`). `action: "rotate"`: a new secret (in the reply, once) while the ' +
        'replaced one keeps signing for 24 h beside it: each POST then carries two signatures in ' +
        '`webhook-signature`, and a receiver accepts it with either secret (message `Webhook secret rotated ' +
        'successfully`). `action: "delete"`: deletes the endpoint and its delivery log (message `Webhook endpoint ' +
        'deleted successfully`).',
      'Deprecated, still accepted: without `action`, no endpointId creates and an endpointId updates; ' +
        '`rotateSecret: true` rotates (beside changes), `delete: true` deletes.',
      `\`batch: true\` (at creation or later) delivers in batches: each POST carries up to ${WEBHOOK_BATCH_MAX} ` +
        'events as a JSON array, oldest first, each element an event with its own `webhookId` (the `webhook-id` it ' +
        'would have alone, the same on every retry: act once per `webhookId`); the `webhook-id` header then names ' +
        'the batch, and the signature covers the whole array. A 2xx acknowledges every event in it.',
      '`redeliver` (a delivery id, alone, without `action`): queues one fresh attempt of a delivered or failed ' +
        'delivery with the same `webhook-id`; the reply is the delivery (message `Redelivery queued`).',
      'URLs must be https:// and must not resolve to a private, loopback or link-local address (checked again at ' +
        'every delivery). A platform has at most ' +
        `${WEBHOOK_ENDPOINTS_PER_PLATFORM} endpoints (a create past that is 400 naming the limit) and one per URL ` +
        '(400 `duplicate_url`). An endpoint or delivery of another platform gives 403; one that does not exist 404 ' +
        '(`webhook_not_found`, `delivery_not_found`).',
    ].join('\n\n'),
    params: webhookManageParams,
    response: okEnvelope(webhookManageResultSchema),
    rateClass: 'api_admin_write',
    access: { scope: 'platform' },
    // Deletes endpoints and rotates secrets; `redeliver` posts to the receiver again.
    effects: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    errors: ['webhook_not_found', 'delivery_not_found', 'duplicate_url'],
    example: {
      platformId: EXAMPLE_IDS.platformId,
      action: 'create',
      url: 'https://hooks.example.com/switchboard',
      events: ['ticket.closed'],
      description: 'CRM sync',
    },
  }),
  deliveries: endpoint({
    operation: 'platform.webhooks.deliveries',
    path: '/api/platform/v1/webhooks/deliveries',
    summary: 'Delivery log of a webhook endpoint, paginated',
    description:
      'Newest first: each delivery with its event type, `webhook-id`, status (`pending`, `delivered`, `failed`), ' +
      'next retry and every attempt (status code, error, duration). Filter by `status`.',
    params: webhookDeliveriesParams,
    response: pageEnvelope(webhookDeliverySchema),
    rateClass: 'api_read',
    access: { scope: 'platform' },
    errors: ['webhook_not_found'],
    example: { platformId: EXAMPLE_IDS.platformId, endpointId: EXAMPLE_IDS.webhookEndpointId, page: 1, limit: 20 },
  }),
};
