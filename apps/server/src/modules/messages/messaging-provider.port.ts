import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ErrorCode,
  Interactive,
  Location,
  MessageError,
  PROVIDER_STATUSES,
  SessionMessageType,
  TemplateButton,
  TemplateCategory,
  TemplateMediaFormat,
  TemplateStatus,
} from '@switchboard/contract';
import { AppError } from '../../kit/errors.js';
import type { Logger } from '../../logger.js';

/** A template header's value for one send: a media header's file, or a text header's variable. */
type OutboundTemplateHeader = { format: TemplateMediaFormat; mediaUrl: string } | { format: 'text'; text: string };

/** A template button's value for one send, with the button's kind (which decides Meta's parameter). */
export interface OutboundTemplateButton {
  index: number;
  type: 'url' | 'quick_reply' | 'copy_code';
  value: string;
}

/** A send's values for the template's header and buttons, as checked against the template. */
export interface OutboundTemplateParts {
  header?: OutboundTemplateHeader;
  buttons?: OutboundTemplateButton[];
}

/** What the service hands a provider: one outbound template message, already validated against the template. */
export interface OutboundTemplateMessage extends OutboundTemplateParts {
  channelId: string;
  to: string;
  templateName: string;
  language: string;
  variables: string[];
}

/** A session (free-form) message, already checked against the 24-hour window and the conversation. */
export interface OutboundSessionMessage {
  channelId: string;
  to: string;
  type: SessionMessageType;
  text?: string;
  previewUrl?: boolean;
  mediaUrl?: string;
  caption?: string;
  filename?: string;
  /** The provider's id of the quoted message. */
  replyTo?: string;
  interactive?: Interactive;
  /** The provider's id of the message reacted to, and the emoji ('' removes the reaction). */
  reaction?: { messageId: string; emoji: string };
  location?: Location;
}

/** What chat/message/read asks of the provider beside the read receipt. */
export interface ReadOptions {
  /** Show the customer "typing…" (WhatsApp's typing indicator). */
  typing?: boolean;
}

/** A status a provider reports. */
export type DeliveryStatus = (typeof PROVIDER_STATUSES)[number];

/** A provider's report that one of its messages moved on, e.g. a WhatsApp Cloud API `statuses[]` webhook entry. */
export interface StatusUpdate {
  provider: string;
  providerMessageId: string;
  status: DeliveryStatus;
  /** Only a message of this channel is updated (a webhook speaks for the channel it was sent to). */
  channelId?: string;
  /** The provider's reason for a `failed` report. */
  error?: Pick<MessageError, 'code' | 'title'>;
  /** ISO 8601: when the provider says it happened; now when it does not say. */
  timestamp?: string;
}

/**
 * The single way status updates come back from any provider; it stores them (never moving a status backwards).
 * `close()` drops what it has not stored yet: the server is stopping.
 */
export interface StatusSink {
  (update: StatusUpdate): Promise<void>;
  close(): void;
}

/** What a template sync left listed: templates stored (approved, pending, rejected), and of those the approved ones. */
export interface TemplateSyncResult {
  synced: number;
  approved: number;
}

/** A template header with the sample Meta's reviewers see: a text's variable value, a media file's upload handle. */
export type TemplateDraftHeader =
  | { format: 'text'; text: string; example?: string }
  | { format: TemplateMediaFormat; example?: string; mediaUrl?: string }
  | { format: 'location' };
/** A button with its sample: a URL variable's filled URL, a copy code. */
export type TemplateDraftButton = TemplateButton & { example?: string };

/** A template as submitted to the provider for review (chat/templates/manage), checked against its rules. */
export interface TemplateDraft {
  name: string;
  language: string;
  category: TemplateCategory;
  body: string;
  bodyExamples: string[];
  /** A media header given by `mediaUrl` is uploaded by the provider, which answers its handle. */
  header: TemplateDraftHeader | null;
  footer: string | null;
  buttons: TemplateDraftButton[];
}

/** The provider's answer to a submission: its id for the template, the review state, the category it settled. */
export interface SubmittedTemplate {
  providerTemplateId: string | null;
  status: TemplateStatus;
  category: TemplateCategory;
  /** The header as stored: a media header's `mediaUrl` replaced by the handle of its upload. */
  header: TemplateDraftHeader | null;
}

/** A template the provider knows: by its id there when it has one. */
export interface ProviderTemplateRef {
  name: string;
  language: string;
  providerTemplateId: string | null;
}

/** A customer's file as its provider describes it. */
export interface MediaFile {
  mimeType: string;
  /** Bytes; null when the provider does not say. */
  size: number | null;
  /** Where the provider serves the file for a few minutes (WhatsApp: Graph's short-lived URL), if it says. */
  location?: string;
}

/** A customer's file on its way from the provider. */
export interface MediaContent extends MediaFile {
  body: Readable;
}

/**
 * What a provider's `send`/`sendSession` throws when it failed before anything went out to its service (WhatsApp: the
 * channel's credentials could not be read, as while PostgreSQL is away): the message was certainly not sent, so the
 * send pipeline queues it again instead of recording an unknown outcome. The failure itself is the `cause` (an
 * outage there still makes an API send a 503).
 */
export class SendNotMadeError extends Error {
  constructor(cause: unknown) {
    super(`nothing was sent: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SendNotMadeError';
  }
}

/** What a provider's refusal of a call says beside its text. */
export interface ProviderFailure {
  /** The provider's own error code (WhatsApp: Meta's, e.g. 131026); null when it gave none. */
  providerCode: number | null;
  /** The provider only asked to slow down (Meta's throughput limits): the same send may go through later. */
  throttled: boolean;
}

/**
 * A provider's refusal of a call as its typed errors carry it: the API's error (status, code, text) and the
 * provider's own code, so the send pipeline records that code and queues a throttled send again instead of reading
 * either out of the text.
 */
export class ProviderCallError extends AppError {
  readonly providerCode: number | null;
  readonly throttled: boolean;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    failure: ProviderFailure,
    headers: Record<string, string> = {},
  ) {
    super(status, code, message, headers);
    this.providerCode = failure.providerCode;
    this.throttled = failure.throttled;
  }
}

/**
 * A messaging provider (sandbox, WhatsApp Cloud API, …). `send` returns the provider's own message id, which
 * becomes the message's `msgid`; later progress arrives through the StatusSink the provider was built with.
 */
export interface MessagingProvider {
  readonly name: string;
  send(message: OutboundTemplateMessage): Promise<{ providerMessageId: string }>;
  /** Sends a session message; its id and progress work as `send`'s. */
  sendSession(message: OutboundSessionMessage): Promise<{ providerMessageId: string }>;
  /** Tells the provider a customer's message (and those before it) has been read (WhatsApp: the blue ticks). */
  markRead(channelId: string, providerMessageId: string, options?: ReadOptions): Promise<void>;
  /**
   * Replaces the channel's templates with the provider's own (chat/templates/sync). A provider without it keeps the
   * templates the seed file gave (the sandbox).
   */
  syncTemplates?(em: EntityManager, channelId: string, log: Logger): Promise<TemplateSyncResult>;
  /** Submits a new template for review (chat/templates/manage `create`). */
  createTemplate(em: EntityManager, channelId: string, draft: TemplateDraft): Promise<SubmittedTemplate>;
  /** Submits a template's new parts for review; name and language stay. */
  editTemplate(
    em: EntityManager,
    channelId: string,
    template: ProviderTemplateRef,
    draft: TemplateDraft,
  ): Promise<SubmittedTemplate>;
  /** Deletes the given languages of a template (all of them: every language of the name). */
  deleteTemplates(em: EntityManager, channelId: string, templates: ProviderTemplateRef[], all: boolean): Promise<void>;
  /** Describes a customer's file by the provider's media id: one call to the provider (chat/media/get). */
  describeMedia(em: EntityManager, channelId: string, mediaId: string): Promise<MediaFile>;
  /**
   * The file's bytes, streamed from the provider (a media link being opened). `described`: what describeMedia said
   * for this link, so a provider whose files live at a short-lived `location` need not look it up again.
   */
  openMedia(em: EntityManager, channelId: string, mediaId: string, described?: MediaFile): Promise<MediaContent>;
  /** Stops background work (timers, connections); nothing is reported after it resolves. */
  close(): Promise<void>;
}
