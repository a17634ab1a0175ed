import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGE_TYPES, type MessageReceivedMedia, type MessageStatus } from '@switchboard/contract';
import type { AttemptOutcome, RowTarget, JobQueue, PendingRow } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import { findOrCreateContactByPhone } from '../contacts/index.js';
import { recordCustomerMessage } from '../conversations/index.js';
import { msgidOfProviderId } from '../messages/index.js';
import { applyStatusUpdate } from '../sending/index.js';
import {
  parseInboundNotification,
  type InboundEvent,
  type InboundMessageEvent,
  type InboundStatusEvent,
} from './inbound.js';
import type { InboundMedia } from './inbound-content.js';
import { WhatsAppWebhookReceipt } from './webhook-receipt.entity.js';
import { WhatsAppConnection, WHATSAPP_CLOUD } from '../whatsapp/index.js';
import { onAccountEvent } from './template-status.js';
import type { ServiceContext } from '../../kit/context.js';

/** The job that applies one stored webhook POST. */
const INBOUND_QUEUE = 'whatsapp.inbound';

/**
 * Stores a signed POST and queues its job in one transaction, before the 200: once Meta has its answer, the payload
 * is in PostgreSQL and will be applied even if this process dies the next moment. The same bytes for the same
 * channel again (Meta's redelivery) are found by their hash: stored once, queued once.
 */
export async function storeWebhookReceipt(
  { em }: ServiceContext,
  jobs: JobQueue,
  channelId: string,
  body: Buffer,
): Promise<{ id: string; duplicate: boolean }> {
  const bodySha256 = createHash('sha256').update(body).digest('hex');
  return em.transactional(async (tx) => {
    const id = randomUUID();
    const { affectedRows } = await tx
      .createQueryBuilder(WhatsAppWebhookReceipt)
      .insert({ id, channel: channelId, bodySha256, body })
      .onConflict(['channel', 'bodySha256'])
      .ignore()
      .execute('run');
    if (affectedRows === 1) {
      await jobs.enqueue(tx, INBOUND_QUEUE, { id, attempt: 0 });
      return { id, duplicate: false };
    }
    const stored = await tx.findOneOrFail(
      WhatsAppWebhookReceipt,
      { channel: channelId, bodySha256 },
      { fields: ['id'] },
    );
    return { id: stored.id, duplicate: true };
  });
}

/** What one receipt changed and what it skipped, for its log line. */
interface InboundSummary {
  statusesApplied: number;
  statusesUnchanged: number;
  messagesRecorded: number;
  messagesSeenBefore: number;
  templateUpdates: number;
  ignored: string[];
  /** Timestamps outside the trusted window, replaced by the receipt time. */
  replaced: string[];
}

interface ChannelNumbers {
  channelId: string;
  phoneNumberId: string;
  wabaId: string;
}

const MESSAGE_TYPE_SET: ReadonlySet<string> = new Set(MESSAGE_TYPES);
const WA_ID = /^\d{1,20}$/;
const MAX_MSGID = 200;

/** Text from Meta as PostgreSQL can store it: no NUL, at most `max` characters. */
const storable = (text: string, max: number) => text.replaceAll('\u0000', '').slice(0, max);
/** A name or title: one line, control characters and runs of white space as one space. */
const oneLine = (text: string, max: number) =>
  text
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, max);

/** The event's view of a customer's file: Meta's id and what it is, never a URL (those need the channel's token). */
function receivedMedia({ id, mimeType, filename, caption }: InboundMedia): MessageReceivedMedia {
  return {
    mediaId: storable(id, 200),
    mimeType: oneLine(mimeType, 200),
    ...(filename === undefined ? {} : { filename: oneLine(filename, 500) }),
    ...(caption === undefined ? {} : { caption: storable(caption, 4096) }),
  };
}

/**
 * What a tap, a reaction or a location adds to the event, as storable as the rest: the message tapped or reacted to
 * by its msgid here (the provider's id names it in Meta's webhook).
 */
async function receivedRichContent(tx: EntityManager, channelId: string, event: InboundMessageEvent) {
  const msgid = (providerId: string) => msgidOfProviderId(tx, channelId, storable(providerId, MAX_MSGID));
  const { interactive, reaction, location } = event;
  return {
    replyTo: event.replyTo === undefined ? null : await msgid(event.replyTo),
    interactive: interactive
      ? {
          kind: interactive.kind,
          id: storable(interactive.id, 256),
          title: oneLine(interactive.title, 200),
          ...(interactive.description === undefined ? {} : { description: oneLine(interactive.description, 200) }),
        }
      : null,
    reaction: reaction ? { msgid: await msgid(reaction.messageId), emoji: reaction.emoji || null } : null,
    location: location
      ? {
          latitude: location.latitude,
          longitude: location.longitude,
          ...(location.name === undefined ? {} : { name: oneLine(location.name, 1000) }),
          ...(location.address === undefined ? {} : { address: oneLine(location.address, 1000) }),
        }
      : null,
  };
}

interface ApplyDeps {
  jobs: JobQueue;
  log: Logger;
}

async function applyStatus(
  tx: EntityManager,
  deps: ApplyDeps,
  channel: ChannelNumbers,
  event: InboundStatusEvent,
  summary: InboundSummary,
) {
  const error = event.error && { code: event.error.code, title: oneLine(event.error.title, 500) };
  const change = await applyStatusUpdate(
    { em: tx },
    {
      provider: WHATSAPP_CLOUD,
      channelId: channel.channelId,
      providerMessageId: event.providerMessageId,
      status: event.status,
      timestamp: event.timestamp,
      ...(error ? { error } : {}),
    },
  );
  if (change) summary.statusesApplied++;
  else summary.statusesUnchanged++;
}

async function applyMessage(
  tx: EntityManager,
  deps: ApplyDeps,
  channel: ChannelNumbers,
  event: InboundMessageEvent,
  summary: InboundSummary,
) {
  if (!WA_ID.test(event.from) || event.providerMessageId.length > MAX_MSGID) {
    summary.ignored.push(
      `message ${event.providerMessageId.slice(0, 80)}: sender "${event.from.slice(0, 40)}" or id not storable`,
    );
    return;
  }
  const name = oneLine(event.contactName ?? '', 200) || event.from;
  const contact = await findOrCreateContactByPhone(tx, channel.channelId, event.from, name, deps.jobs);
  const type = (MESSAGE_TYPE_SET.has(event.type) ? event.type : 'unsupported') as MessageStatus['type'];
  const media = event.media && receivedMedia(event.media);
  const sha256 = event.media?.sha256 === undefined ? {} : { sha256: oneLine(event.media.sha256, 100) };
  const recorded = await recordCustomerMessage(
    { em: tx },
    deps.jobs,
    WHATSAPP_CLOUD,
    {
      msgid: event.providerMessageId,
      channelId: channel.channelId,
      contact,
      type,
      text: event.text === undefined ? null : storable(event.text, 65_536),
      media: media ?? null,
      ...(await receivedRichContent(tx, channel.channelId, event)),
      timestamp: event.timestamp,
    },
    media ? { media: { ...media, ...sha256 } } : {},
  );
  if (recorded) summary.messagesRecorded++;
  else summary.messagesSeenBefore++;
}

/** Why an event is not for this channel: Meta sends one app's webhooks for all its numbers to each callback URL. */
function foreignTo(channel: ChannelNumbers, event: InboundEvent): string | undefined {
  if (event.kind !== 'status' && event.kind !== 'message')
    return event.wabaId === channel.wabaId ? undefined : `${event.kind} update for WABA ${event.wabaId}`;
  return event.phoneNumberId === channel.phoneNumberId
    ? undefined
    : `${event.kind} for phone_number_id ${event.phoneNumberId}`;
}

/**
 * Applies one payload for the channel, in the caller's transaction: statuses through the status sink, customers'
 * messages as contacts and inbound messages, template and number updates to onAccountEvent. Events for another
 * number, unknown kinds and unreadable parts are skipped and listed in the summary; nothing here throws on input.
 */
async function applyInboundPayload(
  { em: tx }: ServiceContext,
  deps: ApplyDeps,
  channel: ChannelNumbers,
  payload: unknown,
  receivedAt: Date,
): Promise<InboundSummary> {
  const { events, ignored, replaced } = parseInboundNotification(payload, receivedAt);
  const summary: InboundSummary = {
    statusesApplied: 0,
    statusesUnchanged: 0,
    messagesRecorded: 0,
    messagesSeenBefore: 0,
    templateUpdates: 0,
    ignored,
    replaced,
  };
  for (const event of events) {
    const foreign = foreignTo(channel, event);
    if (foreign) summary.ignored.push(`${foreign}, not this channel's`);
    else if (event.kind === 'status') await applyStatus(tx, deps, channel, event, summary);
    else if (event.kind === 'message') await applyMessage(tx, deps, channel, event, summary);
    else {
      await onAccountEvent(tx, deps, channel.channelId, event);
      summary.templateUpdates++;
    }
  }
  return summary;
}

function parseJson(body: Buffer): { ok: true; payload: unknown } | { ok: false } {
  try {
    return { ok: true, payload: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

interface InboundRow extends PendingRow {
  channelId: string;
  body: Buffer;
}

type ApplyResult =
  | { outcome: 'already applied' }
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'applied'; summary: InboundSummary };

/**
 * Applies a stored receipt in one transaction with its `appliedAt`: a job run again after a crash (or after its
 * outcome failed to be recorded) finds `appliedAt` set and changes nothing twice.
 */
async function applyStoredReceipt(tx: EntityManager, deps: ApplyDeps, row: InboundRow): Promise<ApplyResult> {
  const claimed = await tx.nativeUpdate(
    WhatsAppWebhookReceipt,
    { id: row.id, appliedAt: null },
    { appliedAt: new Date() },
  );
  if (claimed !== 1) return { outcome: 'already applied' };
  const connection = await tx.findOne(
    WhatsAppConnection,
    { channel: row.channelId },
    { fields: ['phoneNumberId', 'wabaId'] },
  );
  if (!connection) return { outcome: 'skipped', reason: 'channel no longer connected to the WhatsApp Cloud API' };
  const parsed = parseJson(row.body);
  if (!parsed.ok) return { outcome: 'skipped', reason: 'body is not JSON' };
  const channel = { channelId: row.channelId, phoneNumberId: connection.phoneNumberId, wabaId: connection.wabaId };
  const receivedAt = new Date(row.createdAt);
  return {
    outcome: 'applied',
    summary: await applyInboundPayload({ em: tx }, deps, channel, parsed.payload, receivedAt),
  };
}

function logResult(log: Logger, result: ApplyResult): void {
  if (result.outcome === 'already applied') return log.info('inbound receipt was already applied');
  if (result.outcome === 'skipped') return log.warn({ reason: result.reason }, 'inbound receipt skipped');
  const { ignored, replaced, ...counts } = result.summary;
  if (replaced.length)
    log.warn({ replaced: replaced.slice(0, 20), replacedCount: replaced.length }, 'inbound timestamps not believed');
  log.info({ ...counts, ignored: ignored.slice(0, 20), ignoredCount: ignored.length }, 'inbound receipt applied');
}

/**
 * The `whatsapp.inbound` job: applies one stored receipt. A failure (the database went away mid-way) rolls the
 * whole payload back and is a failed attempt, retried on the delivery schedule.
 */
export function webhookReceiptTarget(logger: Logger): RowTarget<InboundRow, AttemptOutcome> {
  const log = logger.child({ component: 'whatsapp-inbound' });
  return {
    queue: INBOUND_QUEUE,
    concurrency: 2,
    entity: WhatsAppWebhookReceipt,
    doneStatus: 'applied',
    async load(em, pending) {
      const receipt = await em.findOne(WhatsAppWebhookReceipt, pending, {
        fields: ['channel', 'body', 'attempts', 'createdAt'],
      });
      if (!receipt) return null;
      return {
        id: receipt.id,
        channelId: receipt.channel.id,
        body: Buffer.from(receipt.body),
        attempts: receipt.attempts,
        createdAt: receipt.createdAt.toISOString(),
      };
    },
    async attempt(row, _signal, { em, jobs }) {
      const receiptLog = log.child({ receiptId: row.id, channelId: row.channelId });
      try {
        logResult(receiptLog, await em.transactional((tx) => applyStoredReceipt(tx, { jobs, log: receiptLog }, row)));
        return { ok: true };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },
  };
}
