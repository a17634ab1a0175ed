import type { EntityManager } from '@mikro-orm/postgresql';
import type { AutomationTriggerEvent } from '@switchboard/contract';
import { taskQueue, type JobQueue } from './jobs.js';

/**
 * The queue that carries what happened to a contact (created, labeled, wrote in) to the modules that act on it
 * (automations). Lower modules queue their events here, in the transaction of the write that caused them; the
 * module that runs them declares the queue's task, so neither knows the other.
 */

export interface TriggerEvent {
  event: AutomationTriggerEvent;
  /** Unique per event: the msgid of a message, the id of a created contact, a fresh id per label added. */
  eventId: string;
  channelId: string;
  contactId: string;
  /** `contact.labeled`: the label added. */
  labelId?: string;
  /** `message.received`: the message's text, if it has one. */
  text?: string;
  /** `message.received`: the id of the reply button or list row tapped, if it is a tap. */
  reply?: string;
  /** ISO 8601, when the write happened: automations created after it do not run on it. */
  at: string;
}

export const TRIGGER_QUEUE = taskQueue<TriggerEvent>('automation.trigger');

/**
 * Queues the event inside the caller's open transaction: it exists if, and only if, the write commits. Runs are
 * taken fairly per channel: one channel's backlog never holds another's events behind it.
 */
export async function queueTrigger(tx: EntityManager, jobs: JobQueue, event: Omit<TriggerEvent, 'at'>): Promise<void> {
  await jobs.enqueueTask(tx, TRIGGER_QUEUE, { ...event, at: new Date().toISOString() }, { share: event.channelId });
}
