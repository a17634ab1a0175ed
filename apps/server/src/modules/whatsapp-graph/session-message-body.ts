import type { OutboundSessionMessage, ReadOptions } from '../messages/index.js';
import { metaInteractive } from './interactive-body.js';

/** The part of the body named after the message's type: what each type carries, in Meta's shape. */
function contentOf(message: OutboundSessionMessage) {
  switch (message.type) {
    case 'text':
      return { body: message.text, preview_url: message.previewUrl ?? false };
    case 'interactive':
      return metaInteractive(message.interactive!);
    case 'reaction':
      return { message_id: message.reaction!.messageId, emoji: message.reaction!.emoji };
    case 'location': {
      const { latitude, longitude, name, address } = message.location!;
      return { latitude, longitude, ...(name !== undefined && { name }), ...(address !== undefined && { address }) };
    }
    default:
      return {
        link: message.mediaUrl,
        ...(message.caption !== undefined && { caption: message.caption }),
        ...(message.filename !== undefined && { filename: message.filename }),
      };
  }
}

/**
 * Graph's body for a session message (Meta's Cloud API reference, "Send messages"): text with `preview_url`
 * (false unless asked), media by public link (Meta fetches it; audio has no caption), interactive messages,
 * reactions and locations (contentOf), and `context` for a quoted reply.
 */
export function sessionMessageBody(message: OutboundSessionMessage) {
  const content = contentOf(message);
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to,
    type: message.type,
    [message.type]: content,
    ...(message.replyTo !== undefined && { context: { message_id: message.replyTo } }),
  };
}

/** Graph's read receipt for a customer's message, with the typing indicator when asked. */
export const readReceiptBody = (messageId: string, options: ReadOptions = {}) => ({
  messaging_product: 'whatsapp',
  status: 'read',
  message_id: messageId,
  ...(options.typing && { typing_indicator: { type: 'text' } }),
});
