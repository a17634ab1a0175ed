import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ticket } from '@switchboard/contract';
import { isoTimestamp } from '../../db/sql.js';
import { NotFoundError } from '../../errors.js';
import { generateShortId } from './short-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ticket as the API returns it, thread included (oldest message first). */
export async function readTicket(em: EntityManager, id: string): Promise<Ticket> {
  const [ticket] = await em.execute<Omit<Ticket, 'messages'>[]>(
    `select t.id, t.short_id as "shortId", t.title, t.description, t.status, t.priority,
            t.assigned_to_id as "assignedToId", t.assigned_to_name as "assignedToName",
            json_build_object('id', o.id, 'email', o.email, 'name', o.name) as owner,
            ${isoTimestamp('t.created_at', 'createdAt')}, ${isoTimestamp('t.updated_at', 'updatedAt')},
            ${isoTimestamp('t.closed_at', 'closedAt')}
       from tickets t join users o on o.id = t.owner_id where t.id = ?`,
    [id],
  );
  if (!ticket) throw new NotFoundError('ticket_not_found', `Ticket ${id} not found in this platform.`);
  const messages = await em.execute<Ticket['messages']>(
    `select m.id, m.message, m.sender_role as "senderRole", m.is_internal as "isInternal", m.author_id as "authorId",
            ${isoTimestamp('m.created_at', 'createdAt')}
       from ticket_messages m where m.ticket_id = ? order by m.created_at, m.id`,
    [id],
  );
  return { ...ticket, messages };
}

export interface LockedTicket {
  id: string;
  status: Ticket['status'];
  ownerId: string;
  ownerEmail: string;
}

/**
 * Finds a ticket of this platform by UUID or shortId and locks it for the rest of the transaction, so two
 * concurrent closes cannot both see the transition into `closed`. Unknown, or another platform's: 404.
 */
export async function lockTicket(tx: EntityManager, platformId: string, ticketId: string): Promise<LockedTicket> {
  const byUuid = UUID.test(ticketId);
  const [ticket] = await tx.execute<LockedTicket[]>(
    `select t.id, t.status, t.owner_id as "ownerId", o.email as "ownerEmail"
       from tickets t join users o on o.id = t.owner_id
      where t.platform_id = ? and ${byUuid ? 't.id = ?' : 't.short_id = ?'}
        for update of t`,
    [platformId, byUuid ? ticketId : ticketId.toUpperCase()],
  );
  if (!ticket) throw new NotFoundError('ticket_not_found', `Ticket ${ticketId} not found in this platform.`);
  return ticket;
}

/** The platform user with this email, created as an admin user of the platform when there is none. */
export async function resolveOwner(tx: EntityManager, platformId: string, email: string): Promise<string> {
  // `on conflict do nothing`: a concurrent request creating the same owner is not an error, we use its row.
  await tx.execute(
    `insert into users (platform_id, email, name, role) values (?, ?, ?, 'admin') on conflict (platform_id, email) do nothing`,
    [platformId, email, email.split('@')[0]!],
  );
  const [owner] = await tx.execute<{ id: string }[]>(`select id from users where platform_id = ? and email = ?`, [platformId, email]);
  return owner!.id;
}

/** An admin (or the owner) of the platform, by id, for assignment; null when the id is not one. */
export async function findAdmin(tx: EntityManager, platformId: string, userId: string): Promise<{ id: string; name: string } | null> {
  const [admin] = await tx.execute<{ id: string; name: string }[]>(
    `select id, name from users where id = ? and platform_id = ? and role in ('admin', 'owner')`,
    [userId, platformId],
  );
  return admin ?? null;
}

/** Inserts a ticket under a fresh shortId; a clash with an existing one (1 in 10^12 per ticket) draws again. */
export async function insertTicket(
  tx: EntityManager,
  values: { platformId: string; ownerId: string; title: string; description: string; priority: string; assignedToId: string | null; assignedToName: string | null },
): Promise<string> {
  for (let draw = 0; draw < 5; draw++) {
    const [row] = await tx.execute<{ id: string }[]>(
      `insert into tickets (platform_id, short_id, owner_id, title, description, priority, assigned_to_id, assigned_to_name)
       values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (platform_id, short_id) do nothing returning id`,
      [values.platformId, generateShortId(), values.ownerId, values.title, values.description, values.priority, values.assignedToId, values.assignedToName],
    );
    if (row) return row.id;
  }
  throw new Error('Could not draw a free ticket shortId in 5 tries');
}
