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
});
