import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ticket } from '@switchboard/contract';
import { QUEUES, type JobQueue } from './queue.js';

export const TICKET_CLOSED = 'ticket.closed';

/** The owner's email. Built from public fields only: internal notes never leave in mail. */
function closedEmail(ticket: Ticket) {
  return {
    subject: `[${ticket.shortId}] Your ticket "${ticket.title}" has been closed`,
    text: [
      `Hello ${ticket.owner.name},`,
      '',
      `Your support ticket ${ticket.shortId} "${ticket.title}" has been closed.`,
      '',
      'If you still need help, contact support and quote the ticket reference above to have it reopened.',
    ].join('\n'),
  };
}

/**
 * Queues the `ticket.closed` email and webhooks inside the transaction that moved the ticket into `closed`,
 * so they exist exactly when the close does. The email's dedupe key names this close (the ticket and its
 * closedAt): queuing the same close twice cannot produce a second email.
 */
export async function enqueueTicketClosed(tx: EntityManager, queue: JobQueue, platformId: string, ticket: Ticket): Promise<void> {
  const { subject, text } = closedEmail(ticket);
  const [email] = await tx.execute<{ id: string }[]>(
    `insert into outbound_emails (dedupe_key, "to", subject, text) values (?, ?, ?, ?)
     on conflict (dedupe_key) do nothing returning id`,
    [`${TICKET_CLOSED}:${ticket.id}:${ticket.closedAt}`, ticket.owner.email, subject, text],
  );
  if (email) await queue.enqueue(tx, QUEUES.email, { id: email.id, attempt: 0 });

  // One delivery per subscribed endpoint; its webhook-id (`msg_…`) is fixed here and reused by every retry.
  const payload = { type: TICKET_CLOSED, timestamp: ticket.closedAt, data: { ticket } };
  const deliveries = await tx.execute<{ id: string }[]>(
    `insert into webhook_deliveries (endpoint_id, webhook_id, event_type, payload)
     select e.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), ?, ?::jsonb
       from webhook_endpoints e
      where e.platform_id = ? and e.is_active and ? = any(e.events)
      order by e.created_at, e.id
     returning id`,
    [TICKET_CLOSED, JSON.stringify(payload), platformId, TICKET_CLOSED],
  );
  for (const delivery of deliveries) await queue.enqueue(tx, QUEUES.webhook, { id: delivery.id, attempt: 0 });
}
