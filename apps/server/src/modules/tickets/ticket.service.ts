import type { Ticket, TicketManageParams } from '@switchboard/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError, type FieldIssue } from '../../errors.js';
import type { JobQueue } from '../../events/queue.js';
import { enqueueTicketClosed } from '../../events/ticket-closed.js';
import type { RequestContext } from '../../http/context.js';
import { findAdmin, insertTicket, lockTicket, readTicket, resolveOwner } from './ticket.queries.js';

/** Rules the schema cannot express alone: which fields creation needs, and what `message` options go together. */
function checkParams(params: TicketManageParams): void {
  const issues: FieldIssue[] = [];
  if (params.ticketId === undefined) {
    for (const field of ['email', 'title', 'description'] as const) {
      if (params[field] === undefined) issues.push({ field, problem: 'is required to create a ticket (no ticketId given)' });
    }
    if (params.status !== undefined && params.status !== 'open') {
      issues.push({ field: 'status', problem: 'a new ticket starts open; change the status with an update' });
    }
  }
  if (params.message === undefined) {
    if (params.senderRole !== undefined) issues.push({ field: 'senderRole', problem: 'only applies together with message' });
    if (params.isInternal !== undefined) issues.push({ field: 'isInternal', problem: 'only applies together with message' });
  } else if (params.isInternal && params.senderRole === 'creator') {
    issues.push({ field: 'isInternal', problem: 'marks an admin note and cannot be used with senderRole creator' });
  }
  if (issues.length) throw new ValidationError(issues);
}

interface Assignment {
  assignedToId?: string | null;
  assignedToName?: string | null;
}

/** assignedToId must name an admin of the platform; its name is the default assignedToName. null unassigns. */
async function resolveAssignment(tx: EntityManager, platformId: string, params: TicketManageParams): Promise<Assignment> {
  if (params.assignedToId === undefined) return params.assignedToName === undefined ? {} : { assignedToName: params.assignedToName };
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

async function createTicket(tx: EntityManager, platformId: string, params: TicketManageParams): Promise<Written> {
  const ownerId = await resolveOwner(tx, platformId, params.email!.toLowerCase());
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

async function updateTicket(tx: EntityManager, platformId: string, ticketId: string, params: TicketManageParams): Promise<Written> {
  const ticket = await lockTicket(tx, platformId, ticketId);
  if (params.email !== undefined && params.email.toLowerCase() !== ticket.ownerEmail) {
    throw ValidationError.field('email', 'must be the ticket owner’s email: the owner is set when the ticket is created');
  }
  const changes: Record<string, unknown> = {
    status: params.status,
    priority: params.priority,
    title: params.title,
    description: params.description,
    ...(await resolveAssignment(tx, platformId, params)),
  };
  const columns = { status: 'status', priority: 'priority', title: 'title', description: 'description', assignedToId: 'assigned_to_id', assignedToName: 'assigned_to_name' };
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [field, column] of Object.entries(columns)) {
    if (changes[field] === undefined) continue;
    sets.push(`${column} = ?`);
    values.push(changes[field]);
  }
  // closedAt: set on the way into `closed`, kept while it stays closed, cleared when reopened.
  if (params.status !== undefined) {
    sets.push(`closed_at = case when ? = 'closed' then coalesce(closed_at, now()) end`);
    values.push(params.status);
  }
  if (sets.length || params.message !== undefined) {
    await tx.execute(`update tickets set ${[...sets, 'updated_at = now()'].join(', ')} where id = ?`, [...values, ticket.id]);
  }
  return { id: ticket.id, ownerId: ticket.ownerId, closedNow: ticket.status !== 'closed' && params.status === 'closed' };
}

/**
 * tickets/manage: creates or updates a ticket, adds the thread message, and, when the ticket has just been
 * closed, queues the owner's email and the `ticket.closed` webhooks — all in one transaction.
 */
export async function manageTicket(ctx: RequestContext, params: TicketManageParams, jobs: JobQueue): Promise<Ticket> {
  checkParams(params);
  const { platformId, userId } = ctx.caller;
  return ctx.em.transactional(async (tx) => {
    const written =
      params.ticketId === undefined ? await createTicket(tx, platformId, params) : await updateTicket(tx, platformId, params.ticketId, params);
    if (params.message !== undefined) {
      const senderRole = params.senderRole ?? 'admin';
      await tx.execute(
        `insert into ticket_messages (ticket_id, author_id, message, sender_role, is_internal) values (?, ?, ?, ?, ?)`,
        [written.id, senderRole === 'creator' ? written.ownerId : userId, params.message, senderRole, params.isInternal ?? false],
      );
    }
    const ticket = await readTicket(tx, written.id);
    if (written.closedNow) await enqueueTicketClosed(tx, jobs, platformId, ticket);
    return ticket;
  });
}
