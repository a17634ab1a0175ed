import {
  ME,
  type Pagination,
  type Ticket,
  type TicketManageValues,
  type TicketsListValues,
  type TicketSummary,
} from '@switchboard/contract';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { ValidationError } from '../../kit/errors.js';
import type { JobQueue } from '../../kit/jobs.js';
import { enqueueTicketClosed } from './ticket-closed.js';
import type { CallerContext } from '../../kit/context.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import { User } from '../users/index.js';
import { TicketMessage } from './ticket-message.entity.js';
import { Ticket as TicketEntity } from './ticket.entity.js';
import {
  findAdmin,
  findTicket,
  insertTicket,
  lockTicket,
  readTicket,
  resolveOwner,
  ticketSummary,
} from './ticket.queries.js';

interface Assignment {
  assignedToId?: string | null;
  assignedToName?: string | null;
}

/** assignedToId must name an admin of the platform; its name is the default assignedToName. null unassigns. */
async function resolveAssignment(
  tx: EntityManager,
  platformId: string,
  params: TicketManageValues,
): Promise<Assignment> {
  if (params.assignedToId === undefined)
    return params.assignedToName === undefined ? {} : { assignedToName: params.assignedToName };
  if (params.assignedToId === null) return { assignedToId: null, assignedToName: params.assignedToName ?? null };
  const admin = await findAdmin(tx, platformId, params.assignedToId);
  if (!admin) throw ValidationError.field('assignedToId', 'must be an admin user of this platform');
  return { assignedToId: admin.id, assignedToName: params.assignedToName ?? admin.name };
}

interface Written {
  id: string;
  ownerId: string;
  /** The request moved the ticket into `closed` from another status. */
  closedNow: boolean;
}

async function createTicket(tx: EntityManager, platformId: string, params: TicketManageValues): Promise<Written> {
  const { id: ownerId } = await resolveOwner(tx, platformId, params.email!.toLowerCase());
  const assignment = await resolveAssignment(tx, platformId, params);
  const id = await insertTicket(tx, {
    platformId,
    ownerId,
    title: params.title!,
    description: params.description!,
    priority: params.priority ?? 'medium',
    assignedToId: assignment.assignedToId ?? null,
    assignedToName: assignment.assignedToName ?? null,
  });
  return { id, ownerId, closedNow: false };
}

async function updateTicket(
  tx: EntityManager,
  platformId: string,
  ticketId: string,
  params: TicketManageValues,
): Promise<Written> {
  const ticket = await lockTicket(tx, platformId, ticketId);
  // Loaded whole: the reply (readTicket) shows the owner from the same identity map.
  const owner = await tx.findOneOrFail(User, ticket.owner.id);
  if (params.email !== undefined && params.email.toLowerCase() !== owner.email) {
    throw ValidationError.field(
      'email',
      'must be the ticket owner’s email: the owner is set when the ticket is created',
    );
  }
  const wasClosed = ticket.status === 'closed';
  const { assignedToId, assignedToName } = await resolveAssignment(tx, platformId, params);
  const changes = {
    status: params.status,
    priority: params.priority,
    title: params.title,
    description: params.description,
    assignedToName,
  };
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  tx.assign(ticket, given);
  if (assignedToId !== undefined)
    ticket.assignedTo = assignedToId === null ? null : tx.getReference(User, assignedToId);
  // closedAt: set on the way into `closed`, kept while it stays closed, cleared when reopened.
  if (params.status !== undefined)
    ticket.closedAt = params.status === 'closed' ? (ticket.closedAt ?? new Date()) : null;
  // Any change, or a new thread message, is an update of the ticket, even when the values stay the same.
  if (Object.keys(given).length || assignedToId !== undefined || params.message !== undefined)
    ticket.updatedAt = new Date();
  return { id: ticket.id, ownerId: owner.id, closedNow: !wasClosed && params.status === 'closed' };
}

/**
 * tickets/manage: creates or updates a ticket, adds the thread message, and, when the ticket has just been
 * closed, queues the owner's email and the `ticket.closed` webhooks — all in one transaction.
 */
export async function manageTicket(ctx: CallerContext, given: TicketManageValues, jobs: JobQueue): Promise<Ticket> {
  const { platformId, userId } = ctx.caller;
  const params = { ...given, assignedToId: given.assignedToId === ME ? userId : given.assignedToId };
  return ctx.em.transactional(async (tx) => {
    const written =
      params.ticketId === undefined
        ? await createTicket(tx, platformId, params)
        : await updateTicket(tx, platformId, params.ticketId, params);
    if (params.message !== undefined) {
      const senderRole = params.senderRole ?? 'admin';
      tx.create(TicketMessage, {
        ticket: written.id,
        author: senderRole === 'creator' ? written.ownerId : userId,
        message: params.message,
        senderRole,
        isInternal: params.isInternal ?? false,
      });
    }
    await tx.flush();
    const ticket = await readTicket(tx, written.id);
    if (written.closedNow && ticket.closedAt)
      await enqueueTicketClosed(tx, jobs, platformId, { ...ticket, closedAt: ticket.closedAt });
    return ticket;
  });
}

/** tickets/list: the platform's tickets, filters combined, most recently updated first; no thread. */
export async function listTickets(
  ctx: CallerContext,
  query: TicketsListValues,
): Promise<{ data: TicketSummary[]; pagination: Pagination }> {
  const where: FilterQuery<TicketEntity> = {
    platform: ctx.caller.platformId,
    ...(query.status !== undefined && { status: query.status }),
    ...(query.priority !== undefined && { priority: query.priority }),
    ...(query.assignedToId !== undefined && {
      assignedTo: query.assignedToId === ME ? ctx.caller.userId : query.assignedToId,
    }),
    // Emails are stored lowercase.
    ...(query.email !== undefined && { owner: { email: query.email.toLowerCase() } }),
    ...(query.updatedSince !== undefined && { updatedAt: { $gte: new Date(query.updatedSince) } }),
  };
  const [tickets, total] = await ctx.em.findAndCount(TicketEntity, where, {
    populate: ['owner'],
    orderBy: { updatedAt: 'desc', id: 'desc' },
    limit: query.limit,
    offset: offsetOf(query),
  });
  return { data: tickets.map(ticketSummary), pagination: paginationOf(query.page, query.limit, total) };
}

/** tickets/get: the whole ticket, by UUID or shortId, internal notes included (the caller is a platform admin). */
export async function getTicket(ctx: CallerContext, ticketId: string): Promise<Ticket> {
  const { id } = await findTicket(ctx.em, ctx.caller.platformId, ticketId);
  return readTicket(ctx.em, id);
}
