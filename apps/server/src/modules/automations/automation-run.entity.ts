import { defineEntity, p } from '@mikro-orm/core';
import {
  AUTOMATION_RUN_OUTCOMES,
  AUTOMATION_TRIGGER_EVENTS,
  type AutomationRun as AutomationRunView,
} from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';

/**
 * One automation's run on one event. `automationId` and `contactId` are plain columns, not foreign keys: a run stays
 * readable after its automation or contact is deleted, until the retention task removes it. The unique
 * (automation, event) pair is what makes each run happen once, however many workers see the event.
 */
const AutomationRunSchema = defineEntity({
  name: 'AutomationRun',
  tableName: 'automation_runs',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    automationId: p.uuid(),
    event: p.enum(AUTOMATION_TRIGGER_EVENTS),
    eventId: p.string().length(200),
    contactId: p.uuid(),
    outcome: p.enum(AUTOMATION_RUN_OUTCOMES),
    steps: p.json<AutomationRunView['steps']>(),
    createdAt: createdAtColumn(),
  },
  uniques: [{ properties: ['automationId', 'eventId'] }],
  // automations/runs, newest first, of a channel or of one automation; the retention task by age.
  indexes: [
    { properties: ['channel', 'createdAt', 'id'] },
    { properties: ['automationId', 'createdAt', 'id'] },
    { properties: ['createdAt'] },
  ],
});
export class AutomationRun extends AutomationRunSchema.class {}
AutomationRunSchema.setClass(AutomationRun);
