import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
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
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import { assertInChannel, type ScopedChannel } from '../channels/index.js';
import { cancelQueuedSends } from '../messages/index.js';
import { createIssues, templateLanguage } from './broadcast-checks.js';
import { startBroadcast } from './broadcast-lifecycle.js';
import { BroadcastRecipient } from './broadcast-recipient.entity.js';
import { Broadcast } from './broadcast.entity.js';
import { broadcastView, broadcastViews } from './broadcast-view.js';

/** What broadcasts/manage works with beyond the caller. */
export interface BroadcastDeps {
  /** Messages a second a channel sends at most: a broadcast's default and ceiling. */
  channelRate: number;
}

const broadcastNotFound = (id: string) => () =>
  new NotFoundError('broadcast_not_found', `No broadcast ${id} in this channel.`);

const nameTaken = (name: string) => ValidationError.field('name', `a broadcast named "${name}" exists in this channel`);

/** The broadcast addressed by id, in the caller's channel (404 in another of theirs, 403 in one they may not use). */
async function broadcastInChannel(
  ctx: CallerContext,
  em: EntityManager,
  channel: ScopedChannel,
  id: string,
  lock = false,
): Promise<Broadcast> {
  const found = await em.findOne(Broadcast, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  assertInChannel(ctx, channel, found?.channel.id, broadcastNotFound(id));
  return found!;
}

/**
 * broadcasts/manage create: checked whole (every issue in one 400, nothing stored), then stored and, unless
 * scheduled, started in the same transaction, so the reply carries its recipients' counts.
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
      const broadcast = tx.create(Broadcast, {
        channel: channel.id,
        name: values.name,
        templateName: values.templateName,
        language: await templateLanguage(tx, channel.id, values),
        variables: values.variables ?? [],
        audience: values.audience,
        status: 'scheduled',
        scheduledAt: values.scheduledAt === undefined ? null : new Date(values.scheduledAt),
        ratePerSecond: values.ratePerSecond ?? deps.channelRate,
      });
      await tx.flush();
      if (values.scheduledAt === undefined) await startBroadcast(tx, broadcast);
      return broadcastView(tx, await tx.findOneOrFail(Broadcast, broadcast.id, { refresh: true }));
    });
  } catch (error) {
    // Two creates of one name racing past the check: the unique index decides, and the loser gets the same 400.
    if (error instanceof UniqueConstraintViolationException) throw nameTaken(values.name);
    throw error;
  }
}

/**
 * broadcasts/manage cancel, in one transaction with the broadcast row locked: a scheduled broadcast never starts; a
 * sending one's messages not yet claimed by a dispatcher are cancelled, and their recipients become `skipped` (reason
 * `cancelled`) with the counts, by the trigger that follows messages. A message already being sent finishes, and
 * its recipient moves on as it ends.
 */
export async function cancelBroadcast(
  ctx: CallerContext,
  channel: ScopedChannel,
  broadcastId: string,
): Promise<BroadcastView> {
  return ctx.em.transactional(async (tx) => {
    const broadcast = await broadcastInChannel(ctx, tx, channel, broadcastId, true);
    if (broadcast.status === 'completed' || broadcast.status === 'cancelled')
      throw ValidationError.field(
        'broadcastId',
        `the broadcast is ${broadcast.status}: only a scheduled or sending one can be cancelled`,
      );
    const now = new Date();
    await tx.nativeUpdate(
      Broadcast,
      { id: broadcast.id },
      { status: 'cancelled', completedAt: now, completedEventAt: now },
    );
    await cancelQueuedSends(tx, { broadcastId: broadcast.id });
    return broadcastView(tx, await tx.findOneOrFail(Broadcast, broadcast.id, { refresh: true }));
  });
}

/** broadcasts/list: newest first, optionally in one status. */
export async function listBroadcasts(
  ctx: CallerContext,
  channelId: string,
  query: { page: number; limit: number; status?: BroadcastStatus },
): Promise<{ data: BroadcastView[]; pagination: Pagination }> {
  const where = { channel: channelId, ...(query.status === undefined ? {} : { status: query.status }) };
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
