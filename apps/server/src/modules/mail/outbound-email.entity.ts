import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';

const EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const;

/** Every email the service sends, written in the same transaction as the event that causes it. */
const OutboundEmailSchema = defineEntity({
  name: 'OutboundEmail',
  tableName: 'outbound_emails',
  properties: {
    id: uuidPrimaryKey(),
    /** What caused the email (e.g. `ticket.closed:<ticketId>:<n>`): one email per cause, however often a job runs. */
    dedupeKey: p.string().length(200).unique(),
    to: p.string().length(320),
    subject: p.string().length(300),
    text: p.text(),
    status: p.enum(EMAIL_STATUSES).default('pending'),
    transport: p.string().length(20).nullable(),
    providerMessageId: p.string().length(300).nullable(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    sentAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
export class OutboundEmail extends OutboundEmailSchema.class {}
OutboundEmailSchema.setClass(OutboundEmail);
