import { defineEntity, p } from '@mikro-orm/core';
import { Channel } from '../channels/index.js';

/**
 * How many contacts each channel has, kept exact by statement-level triggers on `contacts` (see the
 * contact_counts migration): the listing's `total` without counting a million rows per request.
 * Never written by the application.
 */
const ContactCountSchema = defineEntity({
  name: 'ContactCount',
  tableName: 'channel_contact_counts',
  properties: {
    channel: () => p.manyToOne(Channel).primary().deleteRule('cascade').updateRule('no action'),
    total: p.integer().default(0),
  },
});
export class ContactCount extends ContactCountSchema.class {}
ContactCountSchema.setClass(ContactCount);
