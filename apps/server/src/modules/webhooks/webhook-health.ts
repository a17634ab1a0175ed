import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import { queueEmail } from '../mail/index.js';
import { User } from '../users/index.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

/** The email the platform's owner gets when the server disables an endpoint (also its dedupe key's prefix). */
const ENDPOINT_DISABLED = 'webhook.endpoint.disabled';

/** The endpoint an attempt went to, as the health check needs it. */
export interface AttemptedEndpoint {
  endpointId: string;
  platformId: string;
  url: string;
}

async function emailOwner(tx: EntityManager, jobs: JobQueue, endpoint: AttemptedEndpoint, since: Date, now: Date) {
  const owner = await tx.findOne(
    User,
    { platform: endpoint.platformId, role: 'owner' },
    { fields: ['email'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  if (!owner) return;
  await queueEmail({ em: tx }, jobs, {
    dedupeKey: `${ENDPOINT_DISABLED}:${endpoint.endpointId}:${now.toISOString()}`,
    to: owner.email,
    subject: `Webhook endpoint disabled: ${endpoint.url}`,
    text:
      `Every delivery attempt to ${endpoint.url} has failed since ${since.toISOString()}, so Switchboard disabled ` +
      `this webhook endpoint (${endpoint.endpointId}) at ${now.toISOString()}: it receives no events until it is ` +
      'enabled again (webhooks/manage with enabled: true, or the Developer Portal). Its delivery log shows why the ' +
      'attempts failed.',
  });
}

/**
 * After each attempt, in the transaction that records it: a success clears the endpoint's failing streak; a failure
 * starts one, and a streak older than `disableAfterHours` disables the endpoint (`status: "disabled"`) and emails
 * the platform's owner, once: the update only matches while the endpoint is still active.
 */
export async function recordEndpointHealth(
  tx: EntityManager,
  jobs: JobQueue,
  endpoint: AttemptedEndpoint,
  ok: boolean,
  now: Date,
  disableAfterHours: number,
): Promise<void> {
  const { endpointId } = endpoint;
  if (ok) {
    await tx.nativeUpdate(WebhookEndpoint, { id: endpointId, failingSince: { $ne: null } }, { failingSince: null });
    return;
  }
  await tx.nativeUpdate(WebhookEndpoint, { id: endpointId, failingSince: null }, { failingSince: now });
  const cutoff = new Date(now.getTime() - disableAfterHours * 3_600_000);
  const stale = await tx.findOne(
    WebhookEndpoint,
    { id: endpointId, isActive: true, failingSince: { $lte: cutoff } },
    { fields: ['failingSince'] },
  );
  if (!stale) return;
  const disabled = await tx.nativeUpdate(
    WebhookEndpoint,
    { id: endpointId, isActive: true },
    { isActive: false, disabledAt: now, updatedAt: now },
  );
  if (disabled === 1) await emailOwner(tx, jobs, endpoint, stale.failingSince!, now);
}
