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
  actionVariants,
  withOpenApi,
  type ImpliedAction,
  type ImpliedActionInput,
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
function splitEvents(value: string | string[]): string[] {
  const names = (Array.isArray(value) ? value : value.split(',')).map((name) => name.trim()).filter(Boolean);
  return [...new Set(names)];
}

/**
 * The event types of an endpoint: an array, or a comma-separated string (a GET's query). The SDK's input type is a
 * list of known event types, so a misspelt one does not compile; the API checks whatever arrives.
 */
const eventsParam = z
  .union([z.string(), z.array(z.string())], {
    errorMap: () => ({ message: 'must be a comma-separated string or an array of event types' }),
  })
  .transform(splitEvents)
  .superRefine((events, ctx) => {
    const problem = webhookEventsProblem(events);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  })
  .transform((events) => events as WebhookEventType[])
  .describe(
    `Event types to receive, a non-empty subset of: ${WEBHOOK_EVENT_TYPES.join(', ')} (array, or comma-separated)`,
  ) as z.ZodType<WebhookEventType[], z.ZodTypeDef, WebhookEventType[]>;

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

export const WEBHOOK_MANAGE_ACTIONS = ['create', 'update', 'delete', 'rotate', 'redeliver'] as const;
export type WebhookManageAction = (typeof WEBHOOK_MANAGE_ACTIONS)[number];

const urlParam = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .url('must be an absolute URL')
  .describe('https:// URL receiving the events; it must not resolve to a private, loopback or link-local address');
const endpointIdParam = uuidParam().describe('The endpoint to update, delete or rotate');
/** What an endpoint's creation sets and an update may change, beside its URL and events. */
const endpointSettings = {
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
};
const endpointChanges = { url: urlParam.optional(), events: eventsParam.optional(), ...endpointSettings };
const rotateSecretParam = withOpenApi(
  z
    .boolean()
    .optional()
    .describe('Deprecated, use `action: "rotate"`: true issues a new secret; the old one keeps signing for 24 h'),
  { deprecated: true },
);

const webhookActions = {
  create: z.object({ url: urlParam, events: eventsParam, ...endpointSettings }),
  // An update may still rotate the secret beside its changes, as the form without `action` did.
  update: z.object({ endpointId: endpointIdParam, ...endpointChanges, rotateSecret: rotateSecretParam }),
  delete: z.object({ endpointId: endpointIdParam }),
  rotate: z.object({ endpointId: endpointIdParam }),
  redeliver: z.object({
    deliveryId: uuidParam().describe(
      'A delivery id (from webhooks/deliveries): queue one fresh attempt with the same `webhook-id`',
    ),
  }),
};

/** The forms before `action`, still accepted: create without endpointId, change with it, or `redeliver`. */
const webhookFormsWithoutAction = {
  create: z.object({ url: urlParam, events: eventsParam, ...endpointSettings }),
  change: z.object({
    endpointId: endpointIdParam,
    ...endpointChanges,
    rotateSecret: rotateSecretParam,
    delete: withOpenApi(
      z
        .boolean()
        .optional()
        .describe('Deprecated, use `action: "delete"`: true deletes the endpoint and its deliveries'),
      { deprecated: true },
    ),
  }),
  redeliver: z.object({
    redeliver: withOpenApi(uuidParam().describe('Deprecated, use `action: "redeliver"` with `deliveryId`'), {
      deprecated: true,
    }),
  }),
};

const WEBHOOK_CHANGES = ['url', 'events', 'description', 'enabled', 'batch'] as const;

/** A request without `action` (deprecated): the action its fields ask for, as before `action` existed. */
function impliedWebhookAction(values: Record<string, unknown>): ImpliedAction {
  const { redeliver, delete: remove, rotateSecret, ...rest } = values;
  const refuse = (fields: readonly string[], problem: string) =>
    fields.filter((field) => values[field] !== undefined).map((field) => ({ field, problem }));
  const problems =
    redeliver !== undefined
      ? refuse(
          ['endpointId', ...WEBHOOK_CHANGES, 'rotateSecret', 'delete'],
          'cannot be combined with redeliver (the delivery names its endpoint)',
        )
      : rest.endpointId === undefined
        ? refuse(['rotateSecret', 'delete'], 'applies to an existing endpoint: pass endpointId')
        : remove
          ? refuse([...WEBHOOK_CHANGES, 'rotateSecret'], 'cannot be combined with delete')
          : [];
  if (problems.length) return problems;
  if (redeliver !== undefined) return { action: 'redeliver', values: { ...rest, deliveryId: redeliver } };
  if (rest.endpointId === undefined) return { action: 'create', values: rest };
  if (remove) return { action: 'delete', values: rest };
  return { action: 'update', values: { ...rest, ...(rotateSecret === true && { rotateSecret }) } };
}

export const webhookManageParams = actionVariants(webhookActions, {
  shared: { platformId: platformIdParam },
  describe:
    '`create` an endpoint (`url`, `events`), `update` one (`endpointId` and the fields to change), `delete` it, ' +
    '`rotate` its signing secret, or `redeliver` a delivery (`deliveryId`); left out (deprecated): create without ' +
    '`endpointId`, update with it, `delete: true`, `rotateSecret: true`, `redeliver`',
  noun: 'an endpoint',
  fields: { endpointId: endpointIdParam.optional().describe('`update`, `delete`, `rotate`: the endpoint') },
  implied: { forms: webhookFormsWithoutAction, resolve: impliedWebhookAction },
});
export type WebhookManageParams = z.input<typeof webhookManageParams>;
export type WebhookManageValues = z.output<typeof webhookManageParams>;
type WebhookForm<A extends WebhookManageAction> = Extract<WebhookManageParams, { action: A }>;
/** A form without `action` (deprecated). */
type EarlierForm<F extends keyof typeof webhookFormsWithoutAction> = ImpliedActionInput<
  { platformId: typeof platformIdParam },
  Pick<typeof webhookFormsWithoutAction, F>
>;
/** A new endpoint: its `url` and `events` (the secret comes in the reply, once). */
export type WebhookCreateParams = WebhookForm<'create'> | EarlierForm<'create'>;
/** A new secret for an endpoint (in the reply, once); the replaced one keeps signing for 24 h. */
export type WebhookRotateParams =
  | WebhookForm<'rotate'>
  | (WebhookForm<'update'> & { rotateSecret: true })
  | (EarlierForm<'change'> & { rotateSecret: true; delete?: false });
/** One fresh attempt of a delivery: the reply is the delivery. */
export type WebhookRedeliverParams = WebhookForm<'redeliver'> | EarlierForm<'redeliver'>;
/** Update or delete an endpoint (no new secret). */
export type WebhookChangeParams = WebhookForm<'update'> | WebhookForm<'delete'> | EarlierForm<'change'>;

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
        '`rotateSecret: true` rotates (beside changes), `delete: true` deletes, `redeliver` (a delivery id) ' +
        'redelivers.',
      `\`batch: true\` (at creation or later) delivers in batches: each POST carries up to ${WEBHOOK_BATCH_MAX} ` +
        'events as a JSON array, oldest first, each element an event with its own `webhookId` (the `webhook-id` it ' +
        'would have alone, the same on every retry: act once per `webhookId`); the `webhook-id` header then names ' +
        'the batch, and the signature covers the whole array. A 2xx acknowledges every event in it.',
      '`action: "redeliver"` with `deliveryId` (from webhooks/deliveries): queues one fresh attempt of a delivered ' +
        'or failed delivery with the same `webhook-id`; the reply is the delivery (message `Redelivery queued`).',
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
