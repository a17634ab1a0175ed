import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { manageTicket } from './ticket.service.js';

export function ticketsRouter({ em, logger, jobs }: RouteDeps) {
  return {
    manage: implement<typeof contract.platform.tickets.manage>(em, logger, async (params, ctx) => ({
      success: true,
      data: await manageTicket(ctx, params, jobs),
      message: params.ticketId === undefined ? 'Ticket created successfully' : 'Ticket updated successfully',
    })),
  };
}
