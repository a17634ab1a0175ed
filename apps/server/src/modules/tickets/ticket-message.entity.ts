import { defineEntity, p } from '@mikro-orm/core';
import { SENDER_ROLES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { User } from '../users/index.js';
import { Ticket } from './ticket.entity.js';

const TicketMessageSchema = defineEntity({
  name: 'TicketMessage',
  tableName: 'ticket_messages',
  properties: {
    id: uuidPrimaryKey(),
    ticket: () => p.manyToOne(Ticket).deleteRule('cascade'),
    author: () => p.manyToOne(User).nullable().deleteRule('set null'),
    message: p.text(),
    senderRole: p.enum(SENDER_ROLES),
    isInternal: p.boolean().default(false),
    createdAt: createdAtColumn(),
  },
  indexes: [{ properties: ['ticket', 'createdAt'] }],
});
export class TicketMessage extends TicketMessageSchema.class {}
TicketMessageSchema.setClass(TicketMessage);
