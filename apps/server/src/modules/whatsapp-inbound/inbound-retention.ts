import { retentionWorker } from '../../kit/retention.js';
import { WhatsAppWebhookReceipt } from './webhook-receipt.entity.js';

/**
 * Meta redelivers for up to 7 days: a receipt kept twice as long still recognises a late redelivery of the same
 * bytes. Applied and given-up ones go after that; pending ones stay whatever their age.
 */
export const inboundRetention = retentionWorker<WhatsAppWebhookReceipt>({
  name: 'whatsapp.inbound-retention',
  entity: WhatsAppWebhookReceipt,
  days: 14,
  expired: (cutoff) => ({ status: { $ne: 'pending' }, createdAt: { $lt: cutoff } }),
  message: 'old WhatsApp webhook receipts deleted',
});
