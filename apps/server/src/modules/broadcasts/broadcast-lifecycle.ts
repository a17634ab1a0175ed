import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { queueWebhookEvent } from '../webhooks/index.js';
import { resolveAudience } from './broadcast-audience.js';
import { Broadcast } from './broadcast.entity.js';
import { toBroadcast } from './broadcast-view.js';

/**
 * Starts a broadcast in the caller's transaction: `sending` from now, its audience resolved into recipients (one
 * statement), and `completed` at once when no recipient is left to send (the announcer queues its event).
 */
export async function startBroadcast(tx: EntityManager, broadcast: Broadcast): Promise<void> {
  await tx.nativeUpdate(Broadcast, { id: broadcast.id }, { status: 'sending', startedAt: new Date() });
  const queued = await resolveAudience(tx, {
    id: broadcast.id,
    channelId: broadcast.channel.id,
    audience: broadcast.audience,
  });
  if (queued === 0)
    await tx.nativeUpdate(
      Broadcast,
      { id: broadcast.id, status: 'sending' },
      { status: 'completed', completedAt: new Date() },
    );
}

/**
 * Queues `broadcast.completed` for a completed broadcast whose event is not queued yet, and records that it is, in the
 * caller's transaction (the row locked by the caller, so the event is queued once).
 */
export async function announceCompleted(tx: EntityManager, jobs: JobQueue, broadcast: Broadcast): Promise<void> {
  const channel = await tx.findOneOrFail(Channel, broadcast.channel.id, { fields: ['platform'] });
  await queueWebhookEvent({ em: tx }, jobs, channel.platform.id, {
    type: 'broadcast.completed',
    timestamp: broadcast.completedAt!.toISOString(),
    data: { channelId: broadcast.channel.id, broadcast: toBroadcast(broadcast) },
  });
  await tx.nativeUpdate(Broadcast, { id: broadcast.id }, { completedEventAt: new Date() });
}
