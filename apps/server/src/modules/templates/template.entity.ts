import { defineEntity, p } from '@mikro-orm/core';
import { QUALITY_RATINGS, TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import type { StoredButton, StoredHeader } from './template-parts.js';

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
    /** One sample per body variable, for Meta's review: an edit that keeps the body sends them again. */
    bodyExamples: p.json<string[]>().defaultRaw(`'[]'`),
    header: p.json<StoredHeader>().nullable(),
    footer: p.text().nullable(),
    buttons: p.json<StoredButton[]>().defaultRaw(`'[]'`),
    rejectedReason: p.text().nullable(),
    quality: p.enum(QUALITY_RATINGS).default('unknown'),
    /** Meta's id of the template (edits and deletes name it); null for a sandbox channel's. */
    providerTemplateId: p.string().length(64).nullable(),
    /** When an approved template was edited, newest last, within Meta's 30-day edit budget. */
    approvedEdits: p.json<string[]>().defaultRaw(`'[]'`),
    createdAt: createdAtColumn(),
  },
  uniques: [{ properties: ['channel', 'name', 'language'] }],
  indexes: [{ name: 'templates_channel_status_index', properties: ['channel', 'status', 'name'] }],
});

export class Template extends TemplateSchema.class {}
TemplateSchema.setClass(Template);
