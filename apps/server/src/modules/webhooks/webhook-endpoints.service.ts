import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  WebhookEndpoint as WebhookEndpointView,
  WebhookEventType,
  WebhookManageValues,
} from '@switchboard/contract';
import { WEBHOOK_ENDPOINTS_PER_PLATFORM } from '@switchboard/contract';
import { ForbiddenError, NotFoundError, ValidationError } from '../../kit/errors.js';
import { Platform } from '../platforms/index.js';
import type { JobQueue } from '../../kit/jobs.js';
import {
  type DestinationPolicy,
  type ResolveAll,
  inOverlap,
  newWebhookSecret,
  overlapEndsAt,
  assertWebhookUrl,
} from '../webhook-transport/index.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import type { WebhookSecrets } from './webhook-secret-box.js';
import type { ServiceContext } from '../../kit/context.js';

/**
 * What managing endpoints needs beyond the database: the SSRF policy (ALLOW_HTTP_WEBHOOKS), the box signing
 * secrets are sealed in, and the job queue.
 */
export interface WebhookDeps {
  policy: DestinationPolicy;
  secrets: WebhookSecrets;
  jobs: JobQueue;
  /** DNS, injectable for tests; the system resolver otherwise. */
  resolve?: ResolveAll;
}

export type EndpointWithSecret = WebhookEndpointView & { secret?: string };
/** webhooks/manage's actions on an endpoint (all but `redeliver`). */
export type EndpointAction = Exclude<WebhookManageValues, { action: 'redeliver' }>;
type EndpointCreate = Extract<EndpointAction, { action: 'create' }>;
type EndpointChange = Exclude<EndpointAction, { action: 'create' }>;

const WEBHOOK_MESSAGES = {
  created: 'Webhook endpoint created successfully',
  updated: 'Webhook endpoint updated successfully',
  rotated: 'Webhook secret rotated successfully',
  deleted: 'Webhook endpoint deleted successfully',
} as const;

function endpointView(endpoint: WebhookEndpoint, now = new Date()): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description ?? null,
    events: endpoint.events as WebhookEventType[],
    enabled: endpoint.isActive,
    batch: endpoint.batch,
    status: endpoint.isActive ? 'active' : endpoint.disabledAt ? 'disabled' : 'paused',
    previousSecretExpiresAt: inOverlap(endpoint, now) ? endpoint.previousSecretExpiresAt!.toISOString() : null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

/** The platform's endpoints, oldest first. */
export async function listEndpoints(
  { em }: ServiceContext,
  platformId: string,
  endpointId?: string,
): Promise<WebhookEndpointView[]> {
  const endpoints = await em.find(
    WebhookEndpoint,
    { platform: platformId, ...(endpointId === undefined ? {} : { id: endpointId }) },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return endpoints.map((endpoint) => endpointView(endpoint));
}

/** An endpoint of this platform: 404 when no endpoint has the id, 403 when another platform's has it. */
export async function findEndpoint(
  { em }: ServiceContext,
  platformId: string,
  endpointId: string,
  lock = false,
): Promise<WebhookEndpoint> {
  const endpoint = await em.findOne(WebhookEndpoint, endpointId, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!endpoint) throw new NotFoundError('webhook_not_found', `Webhook endpoint ${endpointId} not found.`);
  if (endpoint.platform.id !== platformId)
    throw new ForbiddenError('This webhook endpoint belongs to another platform.');
  return endpoint;
}

/**
 * The platform's caps on endpoints: at most WEBHOOK_ENDPOINTS_PER_PLATFORM (a create), one per URL (a create or a
 * new URL). Runs under a lock on the platform's row, so two parallel creates cannot both take the last place.
 */
async function assertRoomFor(tx: EntityManager, platformId: string, url: string | undefined, ownId?: string) {
  await tx.findOne(Platform, platformId, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
  if (url !== undefined) {
    const same = await tx.findOne(WebhookEndpoint, { platform: platformId, url }, { fields: ['id'] });
    if (same && same.id !== ownId)
      throw new ValidationError(
        [{ field: 'url', problem: `this platform already has an endpoint at ${url} (${same.id})` }],
        'duplicate_url',
      );
  }
  if (
    ownId === undefined &&
    (await tx.count(WebhookEndpoint, { platform: platformId })) >= WEBHOOK_ENDPOINTS_PER_PLATFORM
  )
    throw ValidationError.field(
      'url',
      `a platform has at most ${WEBHOOK_ENDPOINTS_PER_PLATFORM} webhook endpoints; delete one before adding another`,
    );
}

async function createEndpoint(
  em: EntityManager,
  platformId: string,
  params: EndpointCreate,
  secrets: WebhookSecrets,
  secret = newWebhookSecret(),
): Promise<EndpointWithSecret> {
  return em.transactional(async (tx) => {
    await assertRoomFor(tx, platformId, params.url);
    // The id is known before the insert: the sealed secret is bound to it.
    const id = randomUUID();
    const endpoint = tx.create(WebhookEndpoint, {
      id,
      platform: platformId,
      url: params.url,
      events: params.events,
      description: params.description ?? null,
      isActive: params.enabled ?? true,
      batch: params.batch ?? false,
      secretCiphertext: secrets.seal(id, secret),
    });
    await tx.flush();
    return { ...endpointView(endpoint), secret };
  });
}

/** Update, rotation or deletion of one endpoint, under a row lock so concurrent rotations cannot lose a secret. */
async function changeEndpoint(em: EntityManager, platformId: string, params: EndpointChange, secrets: WebhookSecrets) {
  return em.transactional(async (tx) => {
    const endpoint = await findEndpoint({ em: tx }, platformId, params.endpointId, true);
    const now = new Date();
    if (params.action === 'delete') {
      const view = endpointView(endpoint, now);
      // The delivery log goes with it (foreign keys cascade); queued jobs then find nothing to deliver.
      await tx.remove(endpoint).flush();
      return { data: view, message: WEBHOOK_MESSAGES.deleted };
    }
    if (params.action === 'update') await applyChanges(tx, platformId, endpoint, params);
    let secret: string | undefined;
    if (params.action === 'rotate' || params.rotateSecret) {
      secret = newWebhookSecret();
      endpoint.previousSecretCiphertext = endpoint.secretCiphertext;
      endpoint.previousSecretExpiresAt = overlapEndsAt(now);
      endpoint.secretCiphertext = secrets.seal(endpoint.id, secret);
    }
    await tx.flush();
    const data: EndpointWithSecret = { ...endpointView(endpoint, now), ...(secret && { secret }) };
    return { data, message: secret ? WEBHOOK_MESSAGES.rotated : WEBHOOK_MESSAGES.updated };
  });
}

/** An update's changes: the fields given, and a fresh count of failures when it is enabled again. */
async function applyChanges(
  tx: EntityManager,
  platformId: string,
  endpoint: WebhookEndpoint,
  params: Extract<EndpointChange, { action: 'update' }>,
) {
  if (params.url !== undefined && params.url !== endpoint.url)
    await assertRoomFor(tx, platformId, params.url, endpoint.id);
  const fields = {
    url: params.url,
    events: params.events,
    description: params.description,
    isActive: params.enabled,
    batch: params.batch,
  };
  tx.assign(endpoint, Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));
  // Enabled again (after a pause, or after the server disabled it): failures count afresh.
  if (params.enabled === true) tx.assign(endpoint, { disabledAt: null, failingSince: null });
}

/**
 * Create, update, rotate or delete an endpoint of `platformId`. A create signs with `secret` when given
 * (`pnpm cli webhook add --secret`), else with a new one.
 */
export async function manageEndpoint(
  { em }: ServiceContext,
  platformId: string,
  params: EndpointAction,
  deps: Pick<WebhookDeps, 'policy' | 'secrets' | 'resolve'>,
  secret?: string,
): Promise<{ data: EndpointWithSecret; message: string }> {
  // DNS before any transaction: a slow lookup must not hold a row lock.
  if ((params.action === 'create' || params.action === 'update') && params.url !== undefined)
    await assertWebhookUrl(params.url, deps.policy, deps.resolve);
  if (params.action === 'create')
    return {
      data: await createEndpoint(em, platformId, params, deps.secrets, secret),
      message: WEBHOOK_MESSAGES.created,
    };
  return changeEndpoint(em, platformId, params, deps.secrets);
}
