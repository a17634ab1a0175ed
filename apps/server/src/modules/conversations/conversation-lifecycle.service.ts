import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ME,
  type ConversationManageValues,
  type ConversationStatus,
  type Conversation as ConversationView,
  type WebhookEventOf,
} from '@switchboard/contract';
import type { CallerContext, ServiceContext } from '../../kit/context.js';
import { NotFoundError, ValidationError } from '../../kit/errors.js';
import type { JobQueue } from '../../kit/jobs.js';
import { Channel, ChannelUser, type ScopedChannel } from '../channels/index.js';
import { recordInboundMessage } from '../messages/index.js';
import { emitEvent } from '../emitter/index.js';
import { Conversation } from './conversation.entity.js';
import { conversationContact, conversationOf } from './conversation.service.js';

type Updated = WebhookEventOf<'conversation.updated'>['data'];
type Changes = Updated['changes'];
type By = Updated['by'];

/** A conversation changed: the event, with the conversation as it now lists, inside the caller's transaction. */
async function conversationUpdated(
  tx: EntityManager,
  conversation: { channelId: string; contactId: string },
  changes: Changes,
  by: By,
): Promise<ConversationView> {
  const view = await conversationOf(tx, conversation.channelId, conversation.contactId);
  const channel = await tx.findOneOrFail(Channel, conversation.channelId, { fields: ['platform'] });
  await emitEvent({ em: tx }, channel.platform.id, {
    type: 'conversation.updated',
    timestamp: new Date().toISOString(),
    data: { channelId: conversation.channelId, conversation: view, changes, by },
  });
  return view;
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A conversation opened again by the system (a customer wrote, a snooze ran out): what changed. */
function reopened(row: Pick<Conversation, 'status' | 'snoozedUntil'>): Changes {
  return {
    status: { previous: row.status, current: 'open' },
    ...(row.snoozedUntil && { snoozedUntil: { previous: iso(row.snoozedUntil), current: null } }),
  };
}

async function reopen(tx: EntityManager, row: Conversation) {
  const changes = reopened(row);
  tx.assign(row, { status: 'open', snoozedUntil: null, resolvedAt: null });
  await tx.flush();
  await conversationUpdated(tx, { channelId: row.channel.id, contactId: row.contact.id }, changes, {
    type: 'system',
  });
}

/**
 * Records a customer's message (messages' recordInboundMessage) and, in the same transaction, opens its
 * conversation again when it was resolved, pending or snoozed. Every provider's inbound path records through here.
 */
export async function recordCustomerMessage(
  ctx: ServiceContext,
  jobs: JobQueue,
  ...[provider, data, stored]: Parameters<typeof recordInboundMessage> extends [unknown, unknown, ...infer R]
    ? R
    : never
): Promise<boolean> {
  const recorded = await recordInboundMessage(ctx, jobs, provider, data, stored);
  if (!recorded) return false;
  const row = await ctx.em.findOne(
    Conversation,
    { channel: data.channelId, contact: data.contact.id, status: { $ne: 'open' } },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (row) await reopen(ctx.em, row);
  return true;
}

/** Snoozed conversations whose time has come, opened again (at most `batch`, skipping rows another instance holds). */
export async function wakeSnoozed(em: EntityManager, batch = 100): Promise<number> {
  return em.fork().transactional(async (tx) => {
    const due = await tx.find(
      Conversation,
      { status: 'snoozed', snoozedUntil: { $lte: new Date() } },
      { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, limit: batch },
    );
    for (const row of due) await reopen(tx, row);
    return due.length;
  });
}

/** The changes a manage request makes to `row` (only what differs), and the row's new lifecycle columns. */
function plannedChanges(row: Conversation, params: ConversationManageValues) {
  const changes: Changes = {};
  const status: ConversationStatus = params.status ?? row.status;
  const snoozedUntil = status === 'snoozed' ? (params.snoozedUntil ?? iso(row.snoozedUntil)) : null;
  if (status !== row.status) changes.status = { previous: row.status, current: status };
  if (snoozedUntil !== iso(row.snoozedUntil))
    changes.snoozedUntil = { previous: iso(row.snoozedUntil), current: snoozedUntil };
  const assignee = row.assignee ? { id: row.assignee.id, name: row.assignee.name } : null;
  if (params.assigneeId !== undefined && params.assigneeId !== (assignee?.id ?? null))
    changes.assignee = { previous: assignee, current: null };
  const resolvedAt = status !== 'resolved' ? null : status === row.status ? row.resolvedAt : new Date();
  return { changes, columns: { status, snoozedUntil: snoozedUntil && new Date(snoozedUntil), resolvedAt } };
}

/** An assignee must be a member of the channel: anyone else is a 400 naming assigneeId. */
async function channelMember(tx: EntityManager, channelId: string, userId: string) {
  const member = await tx.findOne(ChannelUser, { channel: channelId, user: userId }, { populate: ['user'] });
  if (!member) throw ValidationError.field('assigneeId', 'must be a user who is a member of this channel');
  return { id: userId, name: member.user.name };
}

/**
 * chat/conversations/manage: sets the status (and snooze) and/or the assignee of the conversation with a contact of
 * the channel, under a row lock; a change sends `conversation.updated` by the caller. The reply is the conversation
 * as listed.
 */
export async function manageConversation(
  ctx: CallerContext,
  channel: ScopedChannel,
  given: ConversationManageValues,
): Promise<ConversationView> {
  const params = { ...given, assigneeId: given.assigneeId === ME ? ctx.caller.userId : given.assigneeId };
  return ctx.em.transactional(async (tx) => {
    const notFound = () => new NotFoundError('conversation_not_found', 'No conversation with this contact here.');
    const contactId = await conversationContact({ ...ctx, em: tx }, channel, params).catch((error: unknown) => {
      throw error instanceof NotFoundError ? notFound() : error;
    });
    const row = await tx.findOne(
      Conversation,
      { channel: channel.id, contact: contactId! },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['assignee'] },
    );
    if (!row) throw notFound();
    const { changes, columns } = plannedChanges(row, params);
    const assignee = params.assigneeId ? await channelMember(tx, channel.id, params.assigneeId) : null;
    if (changes.assignee) changes.assignee.current = assignee;
    tx.assign(row, { ...columns, ...(params.assigneeId !== undefined && { assignee: assignee?.id ?? null }) });
    await tx.flush();
    const where = { channelId: channel.id, contactId: contactId! };
    if (Object.keys(changes).length)
      return conversationUpdated(tx, where, changes, { type: 'user', id: ctx.caller.userId });
    return conversationOf(tx, channel.id, contactId!);
  });
}
