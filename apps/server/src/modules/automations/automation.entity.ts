import { defineEntity, p } from '@mikro-orm/core';
import { AUTOMATION_STATUSES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';

const AutomationSchema = defineEntity({
  name: 'Automation',
  tableName: 'automations',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    name: p.string().length(200),
    status: p.enum(AUTOMATION_STATUSES).default('active'),
    executionCount: p.integer().default(0),
    createdAt: createdAtColumn(),
  },
  indexes: [{ properties: ['channel', 'createdAt'] }],
});
export class Automation extends AutomationSchema.class {}
AutomationSchema.setClass(Automation);
