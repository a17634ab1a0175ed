import { defineModule } from '../../kit/module.js';
import { inboundRetention } from './inbound-retention.js';
import { whatsAppReceivers } from './inbound-receiver.router.js';
import { WhatsAppWebhookReceipt } from './webhook-receipt.entity.js';
import { webhookReceiptTarget } from './webhook-receipt.service.js';

/**
 * Meta's webhooks for WhatsApp Cloud API channels: the receiver checks each POST's signature and stores it before
 * answering 200 (a webhook receipt), and the `whatsapp.inbound` job applies it: customers' messages, status reports
 * of our sends, template and phone-number updates.
 */
export const whatsAppInboundModule = defineModule({
  name: 'whatsapp-inbound',
  entities: [WhatsAppWebhookReceipt],
  receivers: whatsAppReceivers,
  jobs: ({ logger }) => ({ targets: [webhookReceiptTarget(logger)], workers: [inboundRetention] }),
});
