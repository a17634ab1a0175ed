import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid, type Ticket, type TicketSummary } from '@switchboard/contract';
import { NotFoundError } from '../../kit/errors.js';
import { User } from '../users/index.js';
import { generateShortId } from './short-id.js';
import { TicketMessage } from './ticket-message.entity.js';
import { Ticket as TicketEntity } from './ticket.entity.js';

const isoOrNull = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A ticket (its owner populated) without its thread, as tickets/list gives it. */
export function ticketSummary(ticket: TicketEntity): TicketSummary {
  return {
    id: ticket.id,
    shortId: ticket.shortId,
    title: ticket.title,
    description: ticket.description,
    status: ticket.status,
    priority: ticket.priority,
    assignedToId: ticket.assignedTo?.id ?? null,
    assignedToName: ticket.assignedToName ?? null,
    owner: { id: ticket.owner.id, email: ticket.owner.email, name: ticket.owner.name },
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    closedAt: isoOrNull(ticket.closedAt),
  };
}

/** The ticket as the API returns it, thread included (oldest message first). */
export async function readTicket(em: EntityManager, id: string): Promise<Ticket> {
  const ticket = await em.findOne(TicketEntity, id, { populate: ['owner'] });
  if (!ticket) throw new NotFoundError('ticket_not_found', `Ticket ${id} not found in this platform.`);
  const messages = await em.find(TicketMessage, { ticket: id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return {
    ...ticketSummary(ticket),
    messages: messages.map((m) => ({
      id: m.id,
      message: m.message,
      senderRole: m.senderRole,
      isInternal: m.isInternal,
      authorId: m.author?.id ?? null,
      createdAt: m.createdAt.toISOString(),
    })),
  };
}

/**
 * Finds a ticket of this platform by UUID or shortId, optionally locking it for the rest of the transaction.
 * Unknown, or another platform's: 404.
 */
export async function findTicket(
  em: EntityManager,
  platformId: string,
  ticketId: string,
  lockMode?: LockMode,
): Promise<TicketEntity> {
  const where = isUuid(ticketId) ? { id: ticketId } : { shortId: ticketId.toUpperCase() };
  const ticket = await em.findOne(TicketEntity, { platform: platformId, ...where }, { lockMode });
  if (!ticket) throw new NotFoundError('ticket_not_found', `Ticket ${ticketId} not found in this platform.`);
  return ticket;
}

/**
 * findTicket, locked until the transaction ends, so two concurrent closes cannot both see the transition into `closed`.
 */
export const lockTicket = (tx: EntityManager, platformId: string, ticketId: string) =>
  findTicket(tx, platformId, ticketId, LockMode.PESSIMISTIC_WRITE);

/** The platform user with this email, created as an admin user of the platform when there is none. */
export async function resolveOwner(tx: EntityManager, platformId: string, email: string): Promise<User> {
  // `on conflict do nothing`: a concurrent request creating the same owner is not an error, we use its row.
  await tx
    .createQueryBuilder(User)
    .insert({ id: randomUUID(), platform: platformId, email, name: email.split('@')[0]!, role: 'admin' })
    .onConflict(['platform', 'email'])
    .ignore()
    .execute();
  return tx.findOneOrFail(User, { platform: platformId, email });
}

/** An admin (or the owner) of the platform, by id, for assignment; null when the id is not one. */
export async function findAdmin(tx: EntityManager, platformId: string, userId: string): Promise<User | null> {
  return tx.findOne(User, { id: userId, platform: platformId, role: { $in: ['admin', 'owner'] } });
}

/** Inserts a ticket under a fresh shortId; a clash with an existing one (1 in 10^12 per ticket) draws again. */
export async function insertTicket(
  tx: EntityManager,
  values: {
    platformId: string;
    ownerId: string;
    title: string;
    description: string;
    priority: Ticket['priority'];
    assignedToId: string | null;
    assignedToName: string | null;
  },
): Promise<string> {
  for (let draw = 0; draw < 5; draw++) {
    const id = randomUUID();
    const { affectedRows } = await tx
      .createQueryBuilder(TicketEntity)
      .insert({
        id,
        platform: values.platformId,
        shortId: generateShortId(),
        owner: values.ownerId,
        title: values.title,
        description: values.description,
        priority: values.priority,
        assignedTo: values.assignedToId,
        assignedToName: values.assignedToName,
      })
      .onConflict(['platform', 'shortId'])
      .ignore()
      .execute('run');
    if (affectedRows === 1) return id;
  }
  throw new Error('Could not draw a free ticket shortId in 5 tries');
}
