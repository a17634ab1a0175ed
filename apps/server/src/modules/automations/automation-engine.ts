import { randomUUID } from 'node:crypto';
import { raw, type EntityManager } from '@mikro-orm/postgresql';
import type { AutomationRun, WebhookEventOf } from '@switchboard/contract';
import type { JobQueue, Task } from '../../kit/jobs.js';
import { TRIGGER_QUEUE, type TriggerEvent } from '../../kit/triggers.js';
import type { Logger } from '../../logger.js';
import { Channel } from '../channels/index.js';
import { Contact, ContactLabel } from '../contacts/index.js';
import { wroteBefore } from '../messages/index.js';
import type { SessionWindows } from '../sending/index.js';
import { emitEvent } from '../emitter/index.js';
import { performActions } from './automation-actions.js';
import { conditionsHold, type RunFacts } from './automation-rules.js';
import { AutomationRun as AutomationRunEntity } from './automation-run.entity.js';
import { Automation } from './automation.entity.js';
import { toRun } from './automation.service.js';

const AUTOMATION_RUN_COMPLETED = 'automation.run.completed';

interface RunDeps {
  jobs: JobQueue;
  log: Logger;
  windows: SessionWindows;
}

async function factsOf(tx: EntityManager, automation: Automation, event: TriggerEvent): Promise<RunFacts | null> {
  const contact = await tx.findOne(
    Contact,
    { id: event.contactId, channel: event.channelId },
    { fields: ['name', 'phone', 'customFields'] },
  );
  if (!contact) return null;
  const labels = await tx.find(ContactLabel, { contact: contact.id }, { fields: ['label'] });
  const asksFirst = automation.conditions.some((condition) => condition.field === 'firstMessage');
  const msgid = event.event === 'message.received' ? event.eventId : undefined;
  return {
    contact: { name: contact.name, phone: contact.phone, customFields: { ...contact.customFields } },
    labelIds: new Set(labels.map((row) => row.label.id)),
    text: event.text ?? null,
    reply: event.reply ?? null,
    firstMessage: asksFirst && !(await wroteBefore({ em: tx }, event.channelId, contact.id, msgid)),
  };
}

/**
 * One automation on one event, in one transaction: claim the (automation, event) pair in the run log (a second
 * worker's insert waits on the first's and then finds it taken), check the conditions, do the actions, record the
 * outcome, count it, and queue `automation.run.completed`. Killed or cut off before the commit, nothing of it
 * happened and the job runs again; after the commit, the claim keeps it from running twice.
 */
async function runAutomation(em: EntityManager, deps: RunDeps, automationId: string, event: TriggerEvent) {
  await em.fork().transactional(async (tx) => {
    const automation = await tx.findOne(Automation, { id: automationId, status: 'active' });
    if (!automation) return;
    const facts = await factsOf(tx, automation, event);
    if (!facts) return;
    const id = randomUUID();
    const at = new Date();
    const { affectedRows } = await tx
      .createQueryBuilder(AutomationRunEntity)
      .insert({
        id,
        channel: event.channelId,
        automationId,
        event: event.event,
        eventId: event.eventId,
        contactId: event.contactId,
        outcome: 'skipped',
        steps: [],
        createdAt: at,
      })
      .onConflict(['automationId', 'eventId'])
      .ignore()
      .execute('run');
    if (affectedRows !== 1) return;
    let outcome: AutomationRun['outcome'] = 'skipped';
    let steps: AutomationRun['steps'] = [];
    if (conditionsHold(automation.conditions, facts)) {
      steps = await performActions(
        {
          tx,
          log: deps.log,
          windows: deps.windows,
          automationId,
          ...event,
          contact: facts.contact,
          ...(event.event === 'message.received' && { messageId: event.eventId }),
        },
        automation.actions,
      );
      outcome = steps.some((step) => step.outcome === 'failed') ? 'failed' : 'succeeded';
      await tx.nativeUpdate(
        Automation,
        { id: automationId },
        { executionCount: raw('execution_count + 1'), lastRunAt: at },
      );
    }
    await tx.nativeUpdate(AutomationRunEntity, { id }, { outcome, steps });
    const run = await tx.findOneOrFail(AutomationRunEntity, id);
    const channel = await tx.findOneOrFail(Channel, event.channelId, { fields: ['platform'] });
    const body: WebhookEventOf<typeof AUTOMATION_RUN_COMPLETED> = {
      type: AUTOMATION_RUN_COMPLETED,
      timestamp: run.createdAt.toISOString(),
      data: { channelId: event.channelId, run: toRun(run) },
    };
    await emitEvent({ em: tx }, channel.platform.id, body);
  });
}

/**
 * Runs a trigger event: every automation of the channel that was active, had this trigger and existed when the
 * event was committed, each in its own transaction. A run that throws (the database went away) fails the job and
 * pg-boss retries it with backoff; the runs already recorded are not repeated.
 */
export function automationTriggerTask(windows: SessionWindows): Task<TriggerEvent> {
  return {
    queue: TRIGGER_QUEUE,
    concurrency: 4,
    // Half the slots: a channel whose sends all hang leaves the other half to the other channels.
    shareConcurrency: 2,
    async wanted(tx, { channelId, event }) {
      const listening = await tx.count(Automation, { channel: channelId, status: 'active', trigger: { event } });
      return listening > 0;
    },
    async run(event, { em, jobs, logger }) {
      const automations = await em.fork().find(
        Automation,
        {
          channel: event.channelId,
          status: 'active',
          trigger: { event: event.event },
          createdAt: { $lte: new Date(event.at) },
        },
        { fields: ['trigger'], orderBy: { createdAt: 'asc', id: 'asc' } },
      );
      const matching = automations.filter(
        (a) => event.event !== 'contact.labeled' || !a.trigger?.labelId || a.trigger.labelId === event.labelId,
      );
      for (const automation of matching) await runAutomation(em, { jobs, windows, log: logger }, automation.id, event);
    },
  };
}
