import { defineEntity, p } from '@mikro-orm/core';
import { CONTACT_STATUSES } from '@switchboard/contract';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import type { CustomFieldValues } from '../custom-fields/index.js';
import { Label } from '../labels/index.js';
import { ContactLabel } from './contact-label.entity.js';

const ContactSchema = defineEntity({
  name: 'Contact',
  tableName: 'contacts',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    name: p.string().length(200),
    phone: p.string().length(20),
    email: p.string().length(320).nullable(),
    status: p.enum(CONTACT_STATUSES).default('active'),
    customFields: p.json<CustomFieldValues>().default('{}'),
    labels: () =>
      p
        .manyToMany(Label)
        .pivotEntity(() => ContactLabel)
        .owner(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  uniques: [{ name: 'contacts_channel_id_phone_unique', properties: ['channel', 'phone'] }],
  indexes: [
    // The listing order, newest first: a page is read straight off this index. Written as a statement because
    // MikroORM 7.2.1 reads the sort of `id` back wrong (it finds `id` inside `channel_id`) and would rebuild it.
    {
      name: 'contacts_channel_recent_index',
      expression:
        'create index "contacts_channel_recent_index" on "contacts" ("channel_id", "created_at" desc, "id" desc)',
    },
    // Phone digits anywhere (contact-search.queries.ts); an operator class needs the statement itself.
    {
      name: 'contacts_phone_trgm_index',
      expression: 'create index "contacts_phone_trgm_index" on "contacts" using gin ("phone" gin_trgm_ops)',
    },
  ],
});
export class Contact extends ContactSchema.class {}
ContactSchema.setClass(Contact);
