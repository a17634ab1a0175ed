import { defineEntity, p } from '@mikro-orm/core';
import { CONTACT_STATUSES } from '@switchboard/contract';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../db/columns.js';
import { Channel } from '../channels/channel.entity.js';
import { Label } from '../labels/label.entity.js';

export type CustomFieldValues = Record<string, string | number | boolean | null>;

/** Trigram and ordering indexes live in the migration: MikroORM's metadata cannot express GIN operator classes. */
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
    labels: () => p.manyToMany(Label).pivotTable('contact_labels').owner(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  uniques: [{ name: 'contacts_channel_id_phone_unique', properties: ['channel', 'phone'] }],
});
export class Contact extends ContactSchema.class {}
ContactSchema.setClass(Contact);
