import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';

const LabelSchema = defineEntity({
  name: 'Label',
  tableName: 'labels',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    name: p.string().length(100),
    description: p.string().length(500).nullable(),
    color: p.string().length(7).nullable(),
    sortOrder: p.integer().default(0),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  uniques: [{ name: 'labels_channel_id_name_unique', properties: ['channel', 'name'] }],
  indexes: [{ name: 'labels_channel_order_index', properties: ['channel', 'sortOrder', 'name'] }],
});
export class Label extends LabelSchema.class {}
LabelSchema.setClass(Label);
