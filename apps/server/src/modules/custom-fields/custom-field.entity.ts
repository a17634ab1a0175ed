import { defineEntity, p } from '@mikro-orm/core';
import { CUSTOM_FIELD_TYPES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';

const CustomFieldSchema = defineEntity({
  name: 'CustomField',
  tableName: 'custom_fields',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    name: p.string().length(100),
    type: p.enum(CUSTOM_FIELD_TYPES),
    isRequired: p.boolean().default(false),
    options: p.json<string[]>().nullable(),
    displayOrder: p.integer().default(0),
    createdAt: createdAtColumn(),
  },
  uniques: [{ properties: ['channel', 'name'] }],
  indexes: [{ name: 'custom_fields_channel_order_index', properties: ['channel', 'displayOrder'] }],
});
export class CustomField extends CustomFieldSchema.class {}
CustomFieldSchema.setClass(CustomField);
