import { defineEntity, p } from '@mikro-orm/core';
import { BROADCAST_RECIPIENT_STATUSES } from '@switchboard/contract';
import { updatedAtColumn } from '../../kit/columns.js';
import { Contact } from '../contacts/index.js';
import { Broadcast } from './broadcast.entity.js';

/** One recipient of a broadcast: keyed by its phone, so a broadcast reaches each phone once. */
const BroadcastRecipientSchema = defineEntity({
  name: 'BroadcastRecipient',
  tableName: 'broadcast_recipients',
  properties: {
    broadcast: () => p.manyToOne(Broadcast).primary().deleteRule('cascade'),
    phone: p.string().length(20).primary(),
    contact: () => p.manyToOne(Contact).nullable().deleteRule('set null'),
    status: p.enum(BROADCAST_RECIPIENT_STATUSES),
    /** The message sent to this recipient (messages.msgid), once sent. */
    msgid: p.string().length(200).nullable(),
    /** Why it failed or was skipped: Meta's code and text, or unsubscribed, blocked, cancelled, outcome_unknown. */
    reason: p.string().length(500).nullable(),
    updatedAt: updatedAtColumn(),
  },
  indexes: [
    // recipients filtered by status, by phone.
    { name: 'broadcast_recipients_status_index', properties: ['broadcast', 'status', 'phone'] },
    // Deleting a contact clears its recipients' contact_id: without this index that is a scan of every recipient.
    { name: 'broadcast_recipients_contact_id_index', properties: ['contact'] },
  ],
});
export class BroadcastRecipient extends BroadcastRecipientSchema.class {}
BroadcastRecipientSchema.setClass(BroadcastRecipient);
