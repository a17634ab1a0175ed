import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { getTicket, listTickets, manageTicket } from './ticket.service.js';

export function ticketsRouter({ em, logger, jobs }: RouteDeps) {
  return {
    list: implement<typeof contract.platform.tickets.list>(em, logger, async (params, ctx) => ({
      success: true,
      ...(await listTickets(ctx, params)),
    })),
    get: implement<typeof contract.platform.tickets.get>(em, logger, async ({ ticketId }, ctx) => ({
      success: true,
      data: await getTicket(ctx, ticketId),
    })),
    manage: implement<typeof contract.platform.tickets.manage>(em, logger, async (params, ctx) => ({
      success: true,
      data: await manageTicket(ctx, params, jobs),
      message: params.ticketId === undefined ? 'Ticket created successfully' : 'Ticket updated successfully',
    })),
  };
}
