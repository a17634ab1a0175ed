import type { OutboundSessionMessage } from '../messages/index.js';

/**
 * Graph's body for a session message (Meta's Cloud API reference, "Send messages"): text with `preview_url`
 * (false unless asked), media by public link (Meta fetches it; audio has no caption), and `context` for a quoted
 * reply.
 */
export function sessionMessageBody(message: OutboundSessionMessage) {
  const content =
    message.type === 'text'
      ? { body: message.text, preview_url: message.previewUrl ?? false }
      : {
          link: message.mediaUrl,
          ...(message.caption !== undefined && { caption: message.caption }),
          ...(message.filename !== undefined && { filename: message.filename }),
        };
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to,
    type: message.type,
    [message.type]: content,
    ...(message.replyTo !== undefined && { context: { message_id: message.replyTo } }),
  };
}

/** Graph's read receipt for a customer's message. */
export const readReceiptBody = (messageId: string) => ({
  messaging_product: 'whatsapp',
  status: 'read',
  message_id: messageId,
});
