import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { TicketMessage } from './ticket-message.entity.js';
import { Ticket } from './ticket.entity.js';
import { ticketsRouter } from './ticket.router.js';
import { ticketsSeed } from './ticket.seed.js';

/** Closing a ticket queues the `ticket.closed` email (mail module) and webhooks (webhooks module). */
export const ticketsModule = defineModule({
  name: 'tickets',
  entities: [Ticket, TicketMessage],
  routes: [routes(contract.platform.tickets, ticketsRouter)],
  seed: [ticketsSeed],
  demo: {
    tickets: [
      {
        ref: 'welcome',
        platform: 'demo',
        email: 'customer@example.com',
        title: 'Cannot log in',
        description: 'The login page rejects my password.',
        status: 'open',
        priority: 'high',
      },
    ],
  },
  examples: {
    ticketId: {
      demo: 'tickets.welcome',
      of: async (em, viewer) =>
        (
          await em.findOne(
            Ticket,
            { platform: viewer.platformId },
            { fields: ['id'], orderBy: { updatedAt: 'desc', id: 'desc' } },
          )
        )?.id,
    },
  },
});
