import { defineEntity, p } from '@mikro-orm/core';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';

const TemplateSchema = defineEntity({
  name: 'Template',
  tableName: 'templates',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    name: p.string().length(200),
    category: p.enum(TEMPLATE_CATEGORIES),
    language: p.string().length(20),
    status: p.enum(TEMPLATE_STATUSES),
    body: p.text(),
    /** Number of distinct {{n}} placeholders in `body`, kept with the row so listings need no parsing. */
    variableCount: p.integer().default(0),
    createdAt: createdAtColumn(),
  },
  uniques: [{ properties: ['channel', 'name', 'language'] }],
  indexes: [{ name: 'templates_channel_status_index', properties: ['channel', 'status', 'name'] }],
});
export class Template extends TemplateSchema.class {}
TemplateSchema.setClass(Template);
