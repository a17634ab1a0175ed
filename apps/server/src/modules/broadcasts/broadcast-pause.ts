import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BroadcastPausedReason, TemplateStatus } from '@switchboard/contract';
import type { JobQueue } from '../../kit/jobs.js';
import { holdQueuedSends, releaseHeldSends } from '../sending/index.js';
import { assertTemplateApproved, type TemplateChange } from '../templates/index.js';
import { queuePreparation } from './broadcast-lifecycle.js';
import { Broadcast } from './broadcast.entity.js';

/** What a broadcast pauses from: it has not finished, and is not paused already. */
const PAUSABLE = ['scheduled', 'preparing', 'sending'] as const;
/** Template statuses Meta refuses sends of (132015, 132016): a broadcast of such a template pauses. */
const UNSENDABLE: ReadonlySet<TemplateStatus> = new Set(['paused', 'disabled']);

/**
 * Pauses a scheduled, preparing or sending broadcast in the caller's transaction, by a conditional update that waits
 * for a hand-over of its sends under way (the dispatcher locks the broadcasts it hands sends of over, and sees the
 * pause once this commits): no send of it starts after, one already handed over finishes. Its queued sends are held
 * (still `queued`, never due). A preparing one's preparation finds it paused and rolls back; its resume prepares it
 * again. Returns whether it paused (false: it was in another status).
 */
export async function pauseOne(tx: EntityManager, broadcastId: string, reason: BroadcastPausedReason) {
  const paused = await tx.nativeUpdate(
    Broadcast,
    { id: broadcastId, status: { $in: [...PAUSABLE] } },
    { status: 'paused', pausedReason: reason },
  );
  if (paused !== 1) return false;
  await holdQueuedSends(tx, { broadcastId });
  return true;
}

/**
 * Resumes a paused broadcast in the caller's transaction, its row locked, while its template is approved (else 400
 * `template_not_approved`): one that had started goes on sending, its held sends due again from now at its rate (the
 * sent ones are no longer queued, so none is sent twice) and the rest of its audience queued after them; one
 * paused before it started is `scheduled` again while its time is ahead, or prepared now. Returns whether it resumed
 * (false: it was not paused).
 */
export async function resumeOne(
  tx: EntityManager,
  jobs: JobQueue,
  broadcastId: string,
  platformId: string,
): Promise<boolean> {
  const broadcast = await tx.findOneOrFail(Broadcast, broadcastId, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
    refresh: true,
  });
  if (broadcast.status !== 'paused') return false;
  await assertTemplateApproved(tx, broadcast.channel.id, broadcast.templateName, broadcast.language);
  const now = new Date();
  const status = broadcast.startedAt
    ? 'sending'
    : broadcast.scheduledAt && broadcast.scheduledAt > now
      ? 'scheduled'
      : 'preparing';
  await tx.nativeUpdate(Broadcast, { id: broadcastId }, { status, pausedReason: null });
  if (status === 'sending') {
    const released = await releaseHeldSends(tx, { broadcastId, ratePerSecond: broadcast.ratePerSecond, startAt: now });
    // The audience not resolved yet follows the released sends, at the same rate (prepareChunk).
    const nextDueAt = new Date(now.getTime() + (released * 1000) / broadcast.ratePerSecond);
    await tx.nativeUpdate(Broadcast, { id: broadcastId }, { nextDueAt });
  }
  if (status === 'preparing' || (status === 'sending' && broadcast.resolving))
    await queuePreparation(tx, jobs, broadcastId, platformId);
  return true;
}

/**
 * A template change applied in the caller's transaction (applyTemplateChange, Meta's webhook or the sandbox's
 * `template-status`): when the template became paused or disabled, the channel's scheduled, preparing and sending
 * broadcasts of it (in that language) pause with `template_paused`, as pauseOne does; each resumes only when asked.
 * Returns how many paused.
 */
export async function pauseTemplateBroadcasts(
  tx: EntityManager,
  change: Pick<TemplateChange, 'channelId' | 'name' | 'language' | 'status'>,
): Promise<number> {
  if (!change.status || !UNSENDABLE.has(change.status)) return 0;
  const broadcasts = await tx.find(
    Broadcast,
    {
      channel: change.channelId,
      templateName: change.name,
      language: change.language,
      status: { $in: [...PAUSABLE] },
    },
    { fields: ['id'], orderBy: { id: 'asc' } },
  );
  let paused = 0;
  for (const broadcast of broadcasts) if (await pauseOne(tx, broadcast.id, 'template_paused')) paused++;
  return paused;
}
