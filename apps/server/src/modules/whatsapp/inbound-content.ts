import { z } from 'zod';

/**
 * What a customer's message holds beside its envelope (Meta's webhooks reference, the messages object; summarised
 * in WHATSAPP-CLOUD.md): the media fields of images, documents, audio, video and stickers, and a readable text for
 * the other types, so no message is dropped for its type. Tolerant like inbound.ts: a part without Meta's shape
 * gives no text and no media, never an error.
 */

/** A file a customer sent: Meta keeps it, we keep its id (fetched on demand with GET /{media-id}). */
export interface InboundMedia {
  id: string;
  mimeType: string;
  sha256?: string;
  filename?: string;
  caption?: string;
}

const MEDIA_TYPES = new Set(['image', 'document', 'audio', 'video', 'sticker']);
const mediaSchema = z.object({
  id: z.string().min(1),
  mime_type: z.string().min(1),
  sha256: z.string().optional().catch(undefined),
  filename: z.string().optional().catch(undefined),
  caption: z.string().optional().catch(undefined),
});
const textSchema = z.object({ body: z.string() });
const coordinate = z.union([z.number(), z.string()]).transform(String);
const locationSchema = z.object({
  latitude: coordinate,
  longitude: coordinate,
  name: z.string().optional().catch(undefined),
  address: z.string().optional().catch(undefined),
});
const sharedContactsSchema = z.array(
  z.object({ name: z.object({ formatted_name: z.string().optional() }).optional() }).passthrough(),
);
const titled = z.object({ title: z.string() });
const interactiveSchema = z.object({
  button_reply: titled.optional().catch(undefined),
  list_reply: titled.optional().catch(undefined),
});
const buttonSchema = z.object({ text: z.string() });
const reactionSchema = z.object({ emoji: z.string().optional() });

const nonEmpty = (text: string | undefined) => (text ? text : undefined);

/**
 * The readable text and media of one message by its type; a type we do not know, or a part that does not have
 * Meta's shape, gives neither (the message is still recorded, with its type).
 */
export function readContent(type: string, raw: Record<string, unknown>): { text?: string; media?: InboundMedia } {
  const part = raw[type];
  if (MEDIA_TYPES.has(type)) {
    const media = mediaSchema.safeParse(part);
    if (!media.success) return {};
    const { id, mime_type: mimeType, sha256, filename, caption } = media.data;
    return {
      text: nonEmpty(caption),
      media: {
        id,
        mimeType,
        ...(sha256 === undefined ? {} : { sha256 }),
        ...(filename === undefined ? {} : { filename }),
        ...(caption === undefined ? {} : { caption }),
      },
    };
  }
  return { text: nonEmpty(readableText(type, part)) };
}

function readableText(type: string, part: unknown): string | undefined {
  switch (type) {
    case 'text':
    case 'system':
      return textSchema.safeParse(part).data?.body;
    case 'location': {
      const location = locationSchema.safeParse(part).data;
      if (!location) return undefined;
      const place = [location.name, location.address].filter(Boolean).join(', ');
      return place || `${location.latitude},${location.longitude}`;
    }
    case 'contacts':
      return sharedContactsSchema
        .safeParse(part)
        .data?.map((contact) => contact.name?.formatted_name)
        .filter(Boolean)
        .join(', ');
    case 'interactive': {
      const reply = interactiveSchema.safeParse(part).data;
      return (reply?.button_reply ?? reply?.list_reply)?.title;
    }
    case 'button':
      return buttonSchema.safeParse(part).data?.text;
    case 'reaction':
      return reactionSchema.safeParse(part).data?.emoji;
    default:
      return undefined;
  }
}
