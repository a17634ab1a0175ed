import { defineEntity, p } from '@mikro-orm/core';
import {
  AUTOMATION_STATUSES,
  type AutomationAction,
  type AutomationCondition,
  type Automation as AutomationView,
} from '@switchboard/contract';
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
    // As the contract's schemas check them when written (automations/manage, the seed file).
    trigger: p.json<NonNullable<AutomationView['trigger']>>().nullable(),
    conditions: p
      .json<AutomationCondition[]>()
      .onCreate(() => [])
      .defaultRaw(`'[]'`),
    actions: p
      .json<AutomationAction[]>()
      .onCreate(() => [])
      .defaultRaw(`'[]'`),
    lastRunAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
  },
  indexes: [{ properties: ['channel', 'createdAt'] }],
  uniques: [{ properties: ['channel', 'name'] }],
});
export class Automation extends AutomationSchema.class {}
AutomationSchema.setClass(Automation);
