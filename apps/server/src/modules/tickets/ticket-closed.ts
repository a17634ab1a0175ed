import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ticket, WebhookEventType } from '@switchboard/contract';
import type { JobQueue } from '../../kit/jobs.js';
import { queueEmail } from '../mail/index.js';
import { emitEvent } from '../emitter/index.js';

const TICKET_CLOSED = 'ticket.closed' satisfies WebhookEventType;

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
export async function enqueueTicketClosed(
  tx: EntityManager,
  jobs: JobQueue,
  platformId: string,
  ticket: Ticket & { closedAt: string },
): Promise<void> {
  const { closedAt } = ticket;
  await queueEmail({ em: tx }, jobs, {
    dedupeKey: `${TICKET_CLOSED}:${ticket.id}:${closedAt}`,
    to: ticket.owner.email,
    ...closedEmail(ticket),
  });
  await emitEvent({ em: tx }, platformId, { type: TICKET_CLOSED, timestamp: closedAt, data: { ticket } });
}
