import { retentionWorker } from '../../kit/retention.js';
import { WhatsAppInboundDelivery } from './inbound-delivery.entity.js';

/**
 * Meta redelivers for up to 7 days: a delivery kept twice as long still recognises a late redelivery of the same
 * bytes. Applied and given-up ones go after that; pending ones stay whatever their age.
 */
export const inboundRetention = retentionWorker<WhatsAppInboundDelivery>({
  name: 'whatsapp.inbound-retention',
  entity: WhatsAppInboundDelivery,
  days: 14,
  expired: (cutoff) => ({ status: { $ne: 'pending' }, createdAt: { $lt: cutoff } }),
  message: 'old WhatsApp inbound deliveries deleted',
});
