import type { Task } from '../../kit/jobs.js';
import { WhatsAppInboundDelivery } from './inbound-delivery.entity.js';

export const INBOUND_RETENTION_QUEUE = 'whatsapp.inbound-retention';
/** Meta redelivers for up to 7 days: a row kept twice as long still recognises a late redelivery of the same bytes. */
export const INBOUND_RETENTION_DAYS = 14;
const DAY_MS = 86_400_000;

/**
 * Hourly (a schedule in PostgreSQL: one run per hour however many instances) deletes Meta's deliveries that were
 * applied or gave up more than INBOUND_RETENTION_DAYS ago; pending ones stay whatever their age.
 */
export const inboundRetentionTask: Task = {
  queue: INBOUND_RETENTION_QUEUE,
  concurrency: 1,
  singleton: true,
  everyMinutes: 60,
  async run(_data, { em, logger }) {
    const cutoff = new Date(Date.now() - INBOUND_RETENTION_DAYS * DAY_MS);
    const deleted = await em.nativeDelete(WhatsAppInboundDelivery, {
      status: { $ne: 'pending' },
      createdAt: { $lt: cutoff },
    });
    if (deleted > 0)
      logger.info({ deleted, olderThanDays: INBOUND_RETENTION_DAYS }, 'old WhatsApp inbound deliveries deleted');
  },
};
