import { defineEntity, p } from '@mikro-orm/core';
import { Label } from '../labels/index.js';
import { Contact } from './contact.entity.js';

/** The labels of a contact. Its own entity so that the lookup by label is declared beside the table. */
const ContactLabelSchema = defineEntity({
  name: 'ContactLabel',
  tableName: 'contact_labels',
  properties: {
    contact: () => p.manyToOne(Contact).primary().deleteRule('cascade').updateRule('cascade'),
    label: () => p.manyToOne(Label).primary().deleteRule('cascade').updateRule('cascade'),
  },
  indexes: [{ name: 'contact_labels_label_id_index', properties: ['label'] }],
});
export class ContactLabel extends ContactLabelSchema.class {}
ContactLabelSchema.setClass(ContactLabel);
