import { z } from 'zod';
import { readContent, type InboundContent, type InboundMedia } from './inbound-content.js';

/**
 * Reads Meta's webhook notifications (Meta's webhooks reference, linked from docs/whatsapp.md) into a flat list of
 * events. Tolerant on purpose: Meta adds fields and event kinds without notice and retries any delivery we do not
 * take, so nothing here throws. What is not understood is skipped and described in `ignored` for a log line; unknown
 * fields inside known objects are dropped silently.
 */

const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
type InboundDeliveryStatus = (typeof DELIVERY_STATUSES)[number];
const isDeliveryStatus = (value: string): value is InboundDeliveryStatus =>
  (DELIVERY_STATUSES as readonly string[]).includes(value);

export interface InboundStatusEvent {
  kind: 'status';
  wabaId: string;
  phoneNumberId: string;
  /** The `wamid.` our send got back, i.e. the message's msgid. */
  providerMessageId: string;
  status: InboundDeliveryStatus;
  /** ISO 8601, from Meta's seconds since the epoch. */
  timestamp: string;
  recipientId?: string;
  /** The first of Meta's `errors[]`, for a failed message. */
  error?: { code: number; title: string };
}

export interface InboundMessageEvent {
  kind: 'message';
  wabaId: string;
  phoneNumberId: string;
  providerMessageId: string;
  /** The customer's WhatsApp id (digits of their phone number). */
  from: string;
  /** The profile name from `contacts[]`, when Meta sent one for this sender. */
  contactName?: string;
  /** Meta's message type as sent: text, image, document, audio, video, location, interactive, button, sticker, … */
  type: string;
  /**
   * Readable text: a text's body, a media caption, a button or list title, a reaction's emoji, a location's name and
   * address (or "lat,long"), shared contacts' names; absent when the type has none.
   */
  text?: string;
  /** Meta's media fields, for image, document, audio, video and sticker messages. */
  media?: InboundMedia;
  /** A tap on a reply button or a list row, with the ids the message sent gave them. */
  interactive?: InboundContent['interactive'];
  reaction?: InboundContent['reaction'];
  location?: InboundContent['location'];
  /** Meta's id of the message replied to or tapped (`context.id`). */
  replyTo?: string;
  timestamp: string;
}

interface InboundTemplateStatusEvent {
  kind: 'template_status';
  wabaId: string;
  /** Meta's review outcome: APPROVED, REJECTED, PENDING, PAUSED, DISABLED, … */
  event: string;
  templateId?: string;
  templateName: string;
  language: string;
  reason?: string;
}

/** Meta's `message_template_quality_update`: a template's quality score moved. */
interface InboundTemplateQualityEvent {
  kind: 'template_quality';
  wabaId: string;
  templateId?: string;
  templateName: string;
  language: string;
  /** GREEN, YELLOW, RED or UNKNOWN, as Meta sends it. */
  quality: string;
}

/** Meta's `template_category_update`: Meta moved a template to another category. */
interface InboundTemplateCategoryEvent {
  kind: 'template_category';
  wabaId: string;
  templateId?: string;
  templateName: string;
  language: string;
  category: string;
}

/** Meta's `phone_number_quality_update`: the number's messaging tier (not its rating, which Graph tells). */
interface InboundPhoneQualityEvent {
  kind: 'phone_quality';
  wabaId: string;
  displayPhoneNumber: string;
  /** UPGRADE, DOWNGRADE, FLAGGED, UNFLAGGED, … */
  event: string;
  /** The tier: `max_daily_conversations_per_business` where present, else `current_limit`. */
  messagingLimit?: string;
}

/** Events about the business account rather than one number's messages. */
export type InboundAccountEvent =
  InboundTemplateStatusEvent | InboundTemplateQualityEvent | InboundTemplateCategoryEvent | InboundPhoneQualityEvent;

export type InboundEvent = InboundStatusEvent | InboundMessageEvent | InboundAccountEvent;

export interface InboundParseResult {
  events: InboundEvent[];
  /** One line per part that was skipped, naming where it was and why. */
  ignored: string[];
  /** One line per timestamp outside the trusted window, replaced by the receipt time (logged at warn). */
  replaced: string[];
}

/**
 * How far from the receipt time a sender's timestamp is believed: Meta retries a delivery for days, and clocks
 * drift by seconds. Outside it (a far-future time would keep a 24-hour window open for ever) the receipt time
 * stands in.
 */
const TRUSTED_PAST_MS = 30 * 24 * 3_600_000;
const TRUSTED_FUTURE_MS = 5 * 60_000;

/** Arrays of a `messages` change this parser knows about (statuses and messages are events; contacts feed names). */
const KNOWN_VALUE_KEYS = new Set(['messaging_product', 'metadata', 'statuses', 'messages', 'contacts']);

/** Unix seconds as sent, any finite number; checked against the receipt time by `trustedTime`. */
const epochSeconds = z
  .union([z.string(), z.number()])
  .transform(Number)
  .refine((seconds) => Number.isFinite(seconds), 'is not a timestamp');

/** The event's time as ISO 8601: the sender's when it is a time within the trusted window, else the receipt time. */
function trustedTime(seconds: number, where: string, result: InboundParseResult, receivedAt: Date): string {
  const ms = seconds * 1000;
  const at = receivedAt.getTime();
  if (Number.isFinite(ms) && ms >= at - TRUSTED_PAST_MS && ms <= at + TRUSTED_FUTURE_MS)
    return new Date(ms).toISOString();
  result.replaced.push(`${where}: timestamp ${String(seconds).slice(0, 40)} replaced by the receipt time`);
  return receivedAt.toISOString();
}

const notification = z.object({ object: z.string().optional(), entry: z.array(z.unknown()) });
const entrySchema = z.object({ id: z.string().min(1), changes: z.array(z.unknown()) });
const changeSchema = z.object({ field: z.string(), value: z.record(z.unknown()) });
const messagesValue = z.object({
  metadata: z.object({ phone_number_id: z.string().min(1) }),
  statuses: z.array(z.unknown()).optional(),
  messages: z.array(z.unknown()).optional(),
  contacts: z.array(z.unknown()).optional(),
});
const statusSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  timestamp: epochSeconds,
  recipient_id: z.string().optional(),
  errors: z
    .array(z.object({ code: z.number().int(), title: z.string().optional(), message: z.string().optional() }))
    .optional(),
});
const messageSchema = z.object({
  id: z.string().min(1),
  from: z.string().min(1),
  timestamp: epochSeconds,
  type: z.string().min(1),
  context: z
    .object({ id: z.string().min(1) })
    .optional()
    .catch(undefined),
});
const contactSchema = z.object({ wa_id: z.string(), profile: z.object({ name: z.string() }).optional() });
const templateStatusValue = z.object({
  event: z.string().min(1),
  message_template_id: z.union([z.string(), z.number()]).transform(String).optional(),
  message_template_name: z.string().min(1),
  message_template_language: z.string().min(1),
  reason: z.string().nullish(),
});

const templateRef = {
  message_template_id: z.union([z.string(), z.number()]).transform(String).optional(),
  message_template_name: z.string().min(1),
  message_template_language: z.string().min(1),
};
const templateQualityValue = z.object({ ...templateRef, new_quality_score: z.string().min(1) });
const templateCategoryValue = z.object({ ...templateRef, new_category: z.string().min(1) });
const phoneQualityValue = z.object({
  display_phone_number: z.union([z.string(), z.number()]).transform(String),
  event: z.string().min(1),
  current_limit: z.string().min(1).optional(),
  max_daily_conversations_per_business: z.string().min(1).optional(),
});

/** The template a template webhook names, as our events carry it. */
const templateOf = (value: z.infer<z.ZodObject<typeof templateRef>>) => ({
  templateName: value.message_template_name,
  language: value.message_template_language,
  ...(value.message_template_id === undefined ? {} : { templateId: value.message_template_id }),
});

/** The account events (template quality and category, number quality), or undefined for another field. */
function readAccountChange(
  wabaId: string,
  field: string,
  value: Record<string, unknown>,
): InboundAccountEvent | 'unreadable' | undefined {
  if (field === 'message_template_quality_update') {
    const update = templateQualityValue.safeParse(value);
    if (!update.success) return 'unreadable';
    return { kind: 'template_quality', wabaId, ...templateOf(update.data), quality: update.data.new_quality_score };
  }
  if (field === 'template_category_update') {
    const update = templateCategoryValue.safeParse(value);
    if (!update.success) return 'unreadable';
    return { kind: 'template_category', wabaId, ...templateOf(update.data), category: update.data.new_category };
  }
  if (field === 'phone_number_quality_update') {
    const update = phoneQualityValue.safeParse(value);
    if (!update.success) return 'unreadable';
    const limit = update.data.max_daily_conversations_per_business ?? update.data.current_limit;
    return {
      kind: 'phone_quality',
      wabaId,
      displayPhoneNumber: update.data.display_phone_number,
      event: update.data.event,
      ...(limit === undefined ? {} : { messagingLimit: limit }),
    };
  }
  return undefined;
}

/** Parses one webhook POST body (already JSON-decoded) received at `receivedAt`. Never throws. */
export function parseInboundNotification(payload: unknown, receivedAt = new Date()): InboundParseResult {
  const result: InboundParseResult = { events: [], ignored: [], replaced: [] };
  const parsed = notification.safeParse(payload);
  if (!parsed.success) {
    result.ignored.push('payload: not a webhook notification with entry[]');
    return result;
  }
  if (parsed.data.object !== undefined && parsed.data.object !== 'whatsapp_business_account') {
    result.ignored.push(`payload: object "${parsed.data.object}" is not whatsapp_business_account`);
    return result;
  }
  parsed.data.entry.forEach((rawEntry, entryIndex) => {
    const entry = entrySchema.safeParse(rawEntry);
    if (!entry.success) {
      result.ignored.push(`entry[${entryIndex}]: unreadable`);
      return;
    }
    entry.data.changes.forEach((rawChange, changeIndex) => {
      readChange(entry.data.id, rawChange, `entry[${entryIndex}].changes[${changeIndex}]`, result, receivedAt);
    });
  });
  return result;
}

function readChange(
  wabaId: string,
  rawChange: unknown,
  where: string,
  result: InboundParseResult,
  receivedAt: Date,
): void {
  const change = changeSchema.safeParse(rawChange);
  if (!change.success) {
    result.ignored.push(`${where}: unreadable`);
    return;
  }
  const { field, value } = change.data;
  if (field === 'messages') {
    readMessagesChange(wabaId, value, where, result, receivedAt);
  } else if (field === 'message_template_status_update') {
    const update = templateStatusValue.safeParse(value);
    if (!update.success) {
      result.ignored.push(`${where}: unreadable template status update`);
      return;
    }
    const {
      event,
      message_template_id: templateId,
      message_template_name,
      message_template_language,
      reason,
    } = update.data;
    result.events.push({
      kind: 'template_status',
      wabaId,
      event,
      templateName: message_template_name,
      language: message_template_language,
      ...(templateId === undefined ? {} : { templateId }),
      ...(reason ? { reason } : {}),
    });
  } else {
    const account = readAccountChange(wabaId, field, value);
    if (account === 'unreadable') result.ignored.push(`${where}: unreadable ${field}`);
    else if (account) result.events.push(account);
    else result.ignored.push(`${where}: field "${field}" is not handled`);
  }
}

interface ChangeContext {
  wabaId: string;
  phoneNumberId: string;
  where: string;
  result: InboundParseResult;
  receivedAt: Date;
}

function readStatuses(statuses: unknown[], { wabaId, phoneNumberId, where, result, receivedAt }: ChangeContext): void {
  statuses.forEach((rawStatus, index) => {
    const status = statusSchema.safeParse(rawStatus);
    if (!status.success) {
      result.ignored.push(`${where}.statuses[${index}]: unreadable`);
      return;
    }
    const { id, status: reported, timestamp, recipient_id: recipientId, errors } = status.data;
    if (!isDeliveryStatus(reported)) {
      result.ignored.push(`${where}.statuses[${index}]: status "${reported}" is not handled`);
      return;
    }
    const firstError = errors?.[0];
    result.events.push({
      kind: 'status',
      wabaId,
      phoneNumberId,
      providerMessageId: id,
      status: reported,
      timestamp: trustedTime(timestamp, `${where}.statuses[${index}]`, result, receivedAt),
      ...(recipientId === undefined ? {} : { recipientId }),
      ...(firstError === undefined
        ? {}
        : { error: { code: firstError.code, title: firstError.title ?? firstError.message ?? '' } }),
    });
  });
}

function readMessagesChange(
  wabaId: string,
  rawValue: Record<string, unknown>,
  where: string,
  result: InboundParseResult,
  receivedAt: Date,
): void {
  const value = messagesValue.safeParse(rawValue);
  if (!value.success) {
    result.ignored.push(`${where}: messages change without metadata.phone_number_id`);
    return;
  }
  const phoneNumberId = value.data.metadata.phone_number_id;
  const { statuses = [], messages = [], contacts = [] } = value.data;
  for (const key of Object.keys(rawValue)) {
    if (!KNOWN_VALUE_KEYS.has(key)) result.ignored.push(`${where}: "${key}" is not handled`);
  }

  readStatuses(statuses, { wabaId, phoneNumberId, where, result, receivedAt });

  const names = new Map<string, string>();
  for (const rawContact of contacts) {
    const contact = contactSchema.safeParse(rawContact);
    if (contact.success && contact.data.profile) names.set(contact.data.wa_id, contact.data.profile.name);
  }
  messages.forEach((rawMessage, index) => {
    const message = messageSchema.safeParse(rawMessage);
    if (!message.success) {
      result.ignored.push(`${where}.messages[${index}]: unreadable`);
      return;
    }
    const { id, from, timestamp, type, context } = message.data;
    const contactName = names.get(from);
    const { text, ...content } = readContent(type, rawMessage as Record<string, unknown>);
    result.events.push({
      kind: 'message',
      wabaId,
      phoneNumberId,
      providerMessageId: id,
      from,
      type,
      timestamp: trustedTime(timestamp, `${where}.messages[${index}]`, result, receivedAt),
      ...(contactName === undefined ? {} : { contactName }),
      ...(text === undefined ? {} : { text }),
      ...content,
      ...(context === undefined ? {} : { replyTo: context.id }),
    });
  });
}
