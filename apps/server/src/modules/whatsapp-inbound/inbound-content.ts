import type { InteractiveReply, Location } from '@switchboard/contract';
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
const reply = z.object({
  id: z.string().min(1),
  title: z.string(),
  description: z.string().optional().catch(undefined),
});
const interactiveSchema = z.object({
  button_reply: reply.optional().catch(undefined),
  list_reply: reply.optional().catch(undefined),
});
const buttonSchema = z.object({ text: z.string() });
const reactionSchema = z.object({ message_id: z.string().min(1), emoji: z.string().optional() });

/** A customer's reaction: Meta's id of the message reacted to, and the emoji ('' when the reaction was removed). */
interface InboundReaction {
  messageId: string;
  emoji: string;
}

/** What one message holds beside its envelope; readContent fills what its type has. */
export interface InboundContent {
  text?: string;
  media?: InboundMedia;
  interactive?: InteractiveReply;
  reaction?: InboundReaction;
  location?: Location;
}

const nonEmpty = (text: string | undefined) => (text ? text : undefined);

/**
 * The readable text and media of one message by its type; a type we do not know, or a part that does not have
 * Meta's shape, gives neither (the message is still recorded, with its type).
 */
export function readContent(type: string, raw: Record<string, unknown>): InboundContent {
  const part = raw[type];
  if (type === 'interactive' || type === 'reaction' || type === 'location') return readRich(type, part);
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
    case 'contacts':
      return sharedContactsSchema
        .safeParse(part)
        .data?.map((contact) => contact.name?.formatted_name)
        .filter(Boolean)
        .join(', ');
    case 'button':
      return buttonSchema.safeParse(part).data?.text;
    default:
      return undefined;
  }
}

/** A tap on a button or a list row, a reaction, a location: what it carries, and its readable text. */
function readRich(type: 'interactive' | 'reaction' | 'location', part: unknown): InboundContent {
  if (type === 'interactive') {
    const parsed = interactiveSchema.safeParse(part).data;
    const [kind, tapped] = parsed?.button_reply
      ? (['button_reply', parsed.button_reply] as const)
      : (['list_reply', parsed?.list_reply] as const);
    if (!tapped) return { text: undefined };
    const { id, title, description } = tapped;
    return {
      text: nonEmpty(title),
      interactive: { kind, id, title, ...(description === undefined ? {} : { description }) },
    };
  }
  if (type === 'reaction') {
    const reaction = reactionSchema.safeParse(part).data;
    if (!reaction) return { text: undefined };
    return {
      text: nonEmpty(reaction.emoji),
      reaction: { messageId: reaction.message_id, emoji: reaction.emoji ?? '' },
    };
  }
  const location = locationSchema.safeParse(part).data;
  const latitude = Number(location?.latitude);
  const longitude = Number(location?.longitude);
  if (!location || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return { text: undefined };
  const place = [location.name, location.address].filter(Boolean).join(', ');
  return {
    text: place || `${location.latitude},${location.longitude}`,
    location: {
      latitude,
      longitude,
      ...(location.name ? { name: location.name } : {}),
      ...(location.address ? { address: location.address } : {}),
    },
  };
}
