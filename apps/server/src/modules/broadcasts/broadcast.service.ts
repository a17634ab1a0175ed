import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  Broadcast as BroadcastView,
  BroadcastCreateValues,
  BroadcastRecipient as RecipientView,
  BroadcastRecipientStatus,
  BroadcastStatus,
  Pagination,
} from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { NotFoundError, ValidationError } from '../../kit/errors.js';
import type { JobQueue } from '../../kit/jobs.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import { provide, serviceKey } from '../../kit/services.js';
import { assertInChannel, type ScopedChannel } from '../channels/index.js';
import { cancelQueuedSends, hasQueuedSends } from '../sending/index.js';
import { createIssues, broadcastTemplate } from './broadcast-checks.js';
import { CANCEL_SENDS_QUEUE, queuePreparation } from './broadcast-lifecycle.js';
import { pauseOne, resumeOne } from './broadcast-pause.js';
import { BroadcastRecipient } from './broadcast-recipient.entity.js';
import { Broadcast } from './broadcast.entity.js';
import { broadcastView, broadcastViews } from './broadcast-view.js';

/** What broadcasts/manage works with beyond the caller. */
export interface BroadcastDeps {
  /** Messages a second a channel sends at most: a broadcast's default and ceiling. */
  channelRate: number;
  jobs: JobQueue;
}

/** Messages a second a channel sends at most (SEND_RATE_PER_CHANNEL), as broadcasts/manage reads it from config. */
export const CHANNEL_RATE = serviceKey<number>('broadcasts.channelRate');
export const channelRateService = provide({ key: CHANNEL_RATE, start: ({ config }) => config.SEND_RATE_PER_CHANNEL });

/** Sends the cancel itself marks cancelled (a small broadcast settles in the reply); a sweep takes the rest. */
const CANCELLED_IN_REPLY = 200;

const broadcastNotFound = (id: string) => () =>
  new NotFoundError('broadcast_not_found', `No broadcast ${id} in this channel.`);

const nameTaken = (name: string) => ValidationError.field('name', `a broadcast named "${name}" exists in this channel`);

/** The 400 of an action the broadcast's status does not allow, naming that status as it stands. */
async function wrongStatus(tx: EntityManager, broadcastId: string, allowed: string): Promise<ValidationError> {
  const { status } = await tx.findOneOrFail(Broadcast, broadcastId, { fields: ['status'], refresh: true });
  return ValidationError.field('broadcastId', `the broadcast is ${status}: only ${allowed}`);
}

/** The broadcast addressed by id, in the caller's channel (404 in another of theirs, 403 in one they may not use). */
async function broadcastInChannel(
  ctx: CallerContext,
  em: EntityManager,
  channel: ScopedChannel,
  id: string,
): Promise<Broadcast> {
  const found = await em.findOne(Broadcast, { id });
  assertInChannel(ctx, channel, found?.channel.id, broadcastNotFound(id));
  return found!;
}

/**
 * broadcasts/manage create: checked whole (every issue in one 400, nothing stored), then stored `scheduled`, or
 * `preparing` with its preparation queued in the same transaction (its audience is resolved in the background, so
 * the reply comes at once whatever its size; the counts follow when it starts sending).
 */
export async function createBroadcast(
  ctx: CallerContext,
  channel: ScopedChannel,
  values: BroadcastCreateValues,
  deps: BroadcastDeps,
): Promise<BroadcastView> {
  try {
    return await ctx.em.transactional(async (tx) => {
      const issues = await createIssues(tx, channel.id, values, { channelRate: deps.channelRate, now: new Date() });
      if (issues.length) throw new ValidationError(issues);
      const template = await broadcastTemplate(tx, channel.id, values);
      if (template.problems.length) throw new ValidationError(template.problems);
      const broadcast = tx.create(Broadcast, {
        channel: channel.id,
        name: values.name,
        templateName: values.templateName,
        language: template.language,
        variables: values.variables ?? [],
        templateParts: Object.keys(template.parts).length > 0 ? template.parts : null,
        audience: values.audience,
        status: values.scheduledAt === undefined ? 'preparing' : 'scheduled',
        scheduledAt: values.scheduledAt === undefined ? null : new Date(values.scheduledAt),
        ratePerSecond: values.ratePerSecond ?? deps.channelRate,
      });
      await tx.flush();
      if (values.scheduledAt === undefined) await queuePreparation(tx, deps.jobs, broadcast.id, channel.platformId);
      return broadcastView(tx, await tx.findOneOrFail(Broadcast, broadcast.id, { refresh: true }));
    });
  } catch (error) {
    // Two creates of one name racing past the check: the unique index decides, and the loser gets the same 400.
    if (error instanceof UniqueConstraintViolationException) throw nameTaken(values.name);
    throw error;
  }
}

/**
 * One broadcasts/manage action on a broadcast of the caller's channel, in one transaction: `act` changes its status,
 * false when its status allows no such change (the 400 then says which can: `allowed`); the reply is the broadcast as
 * it now stands.
 */
async function actOnBroadcast(
  ctx: CallerContext,
  channel: ScopedChannel,
  broadcastId: string,
  allowed: string,
  act: (tx: EntityManager, broadcast: Broadcast) => Promise<boolean>,
): Promise<BroadcastView> {
  return ctx.em.transactional(async (tx) => {
    const broadcast = await broadcastInChannel(ctx, tx, channel, broadcastId);
    if (!(await act(tx, broadcast))) throw await wrongStatus(tx, broadcast.id, allowed);
    return broadcastView(tx, await tx.findOneOrFail(Broadcast, broadcast.id, { refresh: true }));
  });
}

/**
 * broadcasts/manage cancel: the broadcast (a paused one too) becomes `cancelled` by a conditional update, which waits
 * for a hand-over of its sends under way (the dispatcher locks the broadcasts it hands sends of over, and sees the
 * cancel once this commits), so no send of it starts after the reply; one already handed over finishes and its
 * recipient moves on as it ends. A scheduled or preparing one never sends. Its sends not handed over become
 * `cancelled` (their recipients `skipped`, reason `cancelled`, by the trigger that follows messages): the first few
 * here, the rest by a sweep queued with this transaction, so the reply's time does not grow with the audience. An
 * audience still being resolved is resolved no further: its recipients are those resolved.
 */
export const cancelBroadcast = (ctx: CallerContext, jobs: JobQueue, channel: ScopedChannel, broadcastId: string) =>
  actOnBroadcast(
    ctx,
    channel,
    broadcastId,
    'a scheduled, preparing, sending or paused one can be cancelled',
    async (tx, broadcast) => {
      const now = new Date();
      const cancelled = await tx.nativeUpdate(
        Broadcast,
        { id: broadcast.id, status: { $in: ['scheduled', 'preparing', 'sending', 'paused'] } },
        { status: 'cancelled', pausedReason: null, resolving: false, completedAt: now, completedEventAt: now },
      );
      if (cancelled !== 1) return false;
      await cancelQueuedSends(tx, { broadcastId: broadcast.id }, CANCELLED_IN_REPLY);
      if (await hasQueuedSends(tx, { broadcastId: broadcast.id }))
        await jobs.enqueueTask(tx, CANCEL_SENDS_QUEUE, { broadcastId: broadcast.id }, { share: channel.platformId });
      return true;
    },
  );

/** broadcasts/manage pause (pauseOne), `by_request`: the reply is the paused broadcast. */
export const pauseBroadcast = (ctx: CallerContext, channel: ScopedChannel, broadcastId: string) =>
  actOnBroadcast(ctx, channel, broadcastId, 'a scheduled, preparing or sending one can be paused', (tx, broadcast) =>
    pauseOne(tx, broadcast.id, 'by_request'),
  );

/** broadcasts/manage resume (resumeOne): the reply is the broadcast as it goes on. */
export const resumeBroadcast = (ctx: CallerContext, jobs: JobQueue, channel: ScopedChannel, broadcastId: string) =>
  actOnBroadcast(ctx, channel, broadcastId, 'a paused one can be resumed', (tx, broadcast) =>
    resumeOne(tx, jobs, broadcast.id, channel.platformId),
  );

/** broadcasts/list: newest first, optionally in one status. */
export async function listBroadcasts(
  ctx: CallerContext,
  channelId: string,
  query: { page: number; limit: number; status?: BroadcastStatus; broadcastId?: string },
): Promise<{ data: BroadcastView[]; pagination: Pagination }> {
  const where = {
    channel: channelId,
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.broadcastId === undefined ? {} : { id: query.broadcastId }),
  };
  const [rows, total] = await ctx.em.findAndCount(Broadcast, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: query.limit,
    offset: offsetOf(query),
  });
  return { data: await broadcastViews(ctx.em, rows), pagination: paginationOf(query.page, query.limit, total) };
}

/** broadcasts/recipients: one broadcast's recipients by phone, optionally in one status. */
export async function listRecipients(
  ctx: CallerContext,
  channel: ScopedChannel,
  query: { broadcastId: string; page: number; limit: number; status?: BroadcastRecipientStatus },
): Promise<{ data: RecipientView[]; pagination: Pagination }> {
  const broadcast = await broadcastInChannel(ctx, ctx.em, channel, query.broadcastId);
  const where = { broadcast: broadcast.id, ...(query.status === undefined ? {} : { status: query.status }) };
  const [rows, total] = await ctx.em.findAndCount(BroadcastRecipient, where, {
    orderBy: { phone: 'asc' },
    limit: query.limit,
    offset: offsetOf(query),
  });
  const data = rows.map((row) => ({
    contactId: row.contact?.id ?? null,
    phone: row.phone,
    status: row.status,
    msgid: row.msgid ?? null,
    reason: row.reason ?? null,
    updatedAt: row.updatedAt.toISOString(),
  }));
  return { data, pagination: paginationOf(query.page, query.limit, total) };
}
