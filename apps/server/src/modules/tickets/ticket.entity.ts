import { defineEntity, p } from '@mikro-orm/core';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '@switchboard/contract';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Platform } from '../platforms/index.js';
import { User } from '../users/index.js';

const TicketSchema = defineEntity({
  name: 'Ticket',
  tableName: 'tickets',
  properties: {
    id: uuidPrimaryKey(),
    platform: () => p.manyToOne(Platform).deleteRule('cascade'),
    /** Short human reference (e.g. `TK-8F3K2Q9A`), unique per platform, accepted wherever a ticketId is. */
    shortId: p.string().length(16),
    owner: () => p.manyToOne(User),
    title: p.string().length(200),
    description: p.text(),
    status: p.enum(TICKET_STATUSES).default('open'),
    priority: p.enum(TICKET_PRIORITIES).default('medium'),
    assignedTo: () => p.manyToOne(User).nullable().deleteRule('set null'),
    assignedToName: p.string().length(200).nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
    closedAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['platform', 'shortId'] }],
  indexes: [{ name: 'tickets_owner_id_index', properties: ['owner'] }],
});
export class Ticket extends TicketSchema.class {}
TicketSchema.setClass(Ticket);
