import { Agent, request } from 'undici';
import { z } from 'zod';
import { graphFailureError, graphUnexpectedReplyError, graphUnreachableError } from './graph-errors.js';
import type { HeaderSample } from './header-sample.js';
import { isMediaUrl, mediaReply, toGraphMedia, type GraphMedia, type GraphMediaDownload } from './graph-media.js';
import type { OutboundSessionMessage, OutboundTemplateParts, ReadOptions } from '../messages/index.js';
import { readReceiptBody, sessionMessageBody } from './session-message-body.js';
import { metaTemplateSchema, type MetaTemplate } from './meta-templates.js';

/**
 * The WhatsApp Cloud API calls Switchboard makes, over Meta's Graph API (shapes in Meta's Cloud API reference,
 * linked from docs/whatsapp.md).
 *
 * HTTP goes through undici, the Node.js team's own client (the engine under Node's global fetch): its Agent keeps
 * a pool of keep-alive connections per origin, so sends to graph.facebook.com skip the TCP + TLS handshake, and
 * `request()` is its lean API (no WHATWG Response objects to build). One GraphClient serves every channel; each call
 * carries the channel's own access token. Every failure is a typed ProviderError (see graph-errors.ts); no message
 * ever contains the token.
 */

export interface GraphClientOptions {
  /** e.g. `https://graph.facebook.com` (WHATSAPP_GRAPH_URL). */
  graphUrl: string;
  /** e.g. `v23.0` (WHATSAPP_GRAPH_VERSION). */
  version: string;
  /** Whole-call budget (connect, reply, body), per Graph request. */
  timeoutMs?: number;
  /** How long an idle connection stays open for the next call. */
  keepAliveMs?: number;
  /** Most connections held open to the Graph host at once. */
  maxConnections?: number;
}

export interface PhoneNumberCredentials {
  phoneNumberId: string;
  accessToken: string;
}

export interface BusinessAccountCredentials {
  wabaId: string;
  accessToken: string;
}

export interface VerifiedPhoneNumber {
  displayPhoneNumber: string;
  verifiedName: string;
}

export interface TemplateMessage extends OutboundTemplateParts {
  /** Recipient, digits with country code. */
  to: string;
  templateName: string;
  language: string;
  /** Values for {{1}}, {{2}}, … in the template body, in order. */
  variables: string[];
}

export interface TemplateListing {
  templates: MetaTemplate[];
  /** Entries that did not have a template's shape (skipped, worth a log line). */
  unreadable: number;
  /** How many pages Graph served. */
  pages: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_KEEP_ALIVE_MS = 30_000;
const DEFAULT_MAX_CONNECTIONS = 32;
const TEMPLATE_PAGE_SIZE = 100;
/** 100 pages of 100 is well past Meta's per-account template limit; more means paging that does not end. */
const MAX_TEMPLATE_PAGES = 100;
const PHONE_QUALITY_FIELDS = 'quality_rating,messaging_limit_tier';
const TEMPLATE_FIELDS = 'id,name,status,category,language,components,quality_score,rejected_reason';

const phoneNumberReply = z.object({ display_phone_number: z.string(), verified_name: z.string() });
const qualityReply = z.object({ quality_rating: z.string().optional(), messaging_limit_tier: z.string().optional() });
const sendReply = z.object({ messages: z.array(z.object({ id: z.string().min(1) })).min(1) });
const readReply = z.object({ success: z.literal(true) });
const createdTemplateReply = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  status: z.string(),
  category: z.string().optional(),
});
/** An upload session's id is `upload:…`, often with `?sig=…`: it goes into the path as Graph gave it, so no `/`. */
const uploadSessionReply = z.object({ id: z.string().regex(/^upload:[^\s/#]+$/) });
const uploadedFileReply = z.object({ h: z.string().min(1) });
const templatePageReply = z.object({
  data: z.array(z.unknown()),
  paging: z.object({ next: z.string().url().optional() }).optional(),
});

interface GraphCall<T> {
  operation: string;
  accessToken: string;
  url: string;
  reply: z.ZodType<T, z.ZodTypeDef, unknown>;
  json?: unknown;
  /** A file's bytes instead of `json`: the resumable upload's transfer, which authenticates with `OAuth`. */
  file?: Buffer;
  /** GET without `json` or `file`, POST with one, unless said. */
  method?: 'DELETE' | 'POST';
}

/** A template as Meta's `message_templates` takes it (components from template-components.ts). */
export interface MetaTemplateSubmission {
  name: string;
  language: string;
  category: string;
  components: Record<string, unknown>[];
}

export class GraphClient {
  private readonly baseUrl: string;
  private readonly graphUrl: string;
  private readonly timeoutMs: number;
  private readonly agent: Agent;

  constructor(options: GraphClientOptions) {
    this.graphUrl = options.graphUrl.replace(/\/+$/, '');
    this.baseUrl = `${this.graphUrl}/${encodeURIComponent(options.version)}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.agent = new Agent({
      keepAliveTimeout: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      connections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    });
  }

  /** The credential check: the phone number's public name, or a refusal (bad token, wrong id). */
  async verifyPhoneNumber(credentials: PhoneNumberCredentials): Promise<VerifiedPhoneNumber> {
    const reply = await this.call({
      operation: 'checking the phone number',
      accessToken: credentials.accessToken,
      url: `${this.baseUrl}/${encodeURIComponent(credentials.phoneNumberId)}?fields=display_phone_number,verified_name`,
      reply: phoneNumberReply,
    });
    return { displayPhoneNumber: reply.display_phone_number, verifiedName: reply.verified_name };
  }

  /** The number's quality rating (GREEN, YELLOW, RED, UNKNOWN) and messaging tier, as Meta has them now. */
  async phoneQuality(credentials: PhoneNumberCredentials): Promise<{ quality?: string; messagingLimit?: string }> {
    const reply = await this.call({
      operation: 'reading the number’s quality',
      accessToken: credentials.accessToken,
      url: `${this.baseUrl}/${encodeURIComponent(credentials.phoneNumberId)}?fields=${PHONE_QUALITY_FIELDS}`,
      reply: qualityReply,
    });
    return {
      ...(reply.quality_rating === undefined ? {} : { quality: reply.quality_rating }),
      ...(reply.messaging_limit_tier === undefined ? {} : { messagingLimit: reply.messaging_limit_tier }),
    };
  }

  /** Sends one template message; the `wamid.` Meta gives it becomes our msgid. */
  sendTemplate(credentials: PhoneNumberCredentials, message: TemplateMessage): Promise<{ providerMessageId: string }> {
    return this.postMessage(credentials, 'sending the template message', templateMessageBody(message));
  }

  /** Sends one session message (text, or media by link); the `wamid.` Meta gives it becomes our msgid. */
  sendSession(
    credentials: PhoneNumberCredentials,
    message: OutboundSessionMessage,
  ): Promise<{ providerMessageId: string }> {
    return this.postMessage(credentials, 'sending the message', sessionMessageBody(message));
  }

  /** Marks a customer's message read (WhatsApp marks the earlier ones with it). */
  async markRead(credentials: PhoneNumberCredentials, messageId: string, options?: ReadOptions): Promise<void> {
    await this.call({
      operation: 'marking the message read',
      accessToken: credentials.accessToken,
      url: this.messagesUrl(credentials),
      reply: readReply,
      json: readReceiptBody(messageId, options),
    });
  }

  /** Every template of the business account, following Graph's cursor paging to the last page. */
  async listTemplates(credentials: BusinessAccountCredentials): Promise<TemplateListing> {
    const listing: TemplateListing = { templates: [], unreadable: 0, pages: 0 };
    const seen = new Set<string>();
    const query = `fields=${TEMPLATE_FIELDS}&limit=${TEMPLATE_PAGE_SIZE}`;
    let url: string | undefined =
      `${this.baseUrl}/${encodeURIComponent(credentials.wabaId)}/message_templates?${query}`;
    while (url !== undefined) {
      if (listing.pages === MAX_TEMPLATE_PAGES || seen.has(url)) {
        throw graphUnexpectedReplyError('listing the templates (the paging did not come to an end)');
      }
      seen.add(url);
      const page: z.infer<typeof templatePageReply> = await this.call({
        operation: 'listing the templates',
        accessToken: credentials.accessToken,
        url,
        reply: templatePageReply,
      });
      listing.pages += 1;
      for (const entry of page.data) {
        const template = metaTemplateSchema.safeParse(entry);
        if (template.success) listing.templates.push(template.data);
        else listing.unreadable += 1;
      }
      url = page.paging?.next;
      // The access token goes with the next request, so only ever to the Graph host we were configured with.
      if (url !== undefined && !url.startsWith(`${this.graphUrl}/`)) {
        throw graphUnexpectedReplyError('listing the templates (a paging link pointed to another host)');
      }
    }
    return listing;
  }

  /** Submits a new template for review: Meta's id for it and its first status (PENDING, or APPROVED at once). */
  createTemplate(credentials: BusinessAccountCredentials, template: MetaTemplateSubmission) {
    return this.call({
      operation: 'creating the template',
      accessToken: credentials.accessToken,
      url: `${this.baseUrl}/${encodeURIComponent(credentials.wabaId)}/message_templates`,
      reply: createdTemplateReply,
      json: { ...template, parameter_format: 'POSITIONAL' },
    });
  }

  /** Submits a template's new components (and category) for review; name and language never change. */
  async editTemplate(
    accessToken: string,
    templateId: string,
    edit: Pick<MetaTemplateSubmission, 'category' | 'components'>,
  ): Promise<void> {
    await this.call({
      operation: 'editing the template',
      accessToken,
      url: `${this.baseUrl}/${encodeURIComponent(templateId)}`,
      reply: readReply,
      json: edit,
    });
  }

  /** Deletes every language of a template (`name`), or one (`name` and its `templateId`). */
  async deleteTemplate(credentials: BusinessAccountCredentials, name: string, templateId?: string): Promise<void> {
    const query = new URLSearchParams({ name, ...(templateId === undefined ? {} : { hsm_id: templateId }) });
    await this.call({
      operation: 'deleting the template',
      accessToken: credentials.accessToken,
      url: `${this.baseUrl}/${encodeURIComponent(credentials.wabaId)}/message_templates?${query}`,
      reply: readReply,
      method: 'DELETE',
    });
  }

  /**
   * Uploads a file with Meta's resumable upload API (Graph API "Resumable Upload API"), in one piece: a session on
   * the app for the file's name, length and type, then its bytes from offset 0. Answers the file's handle, e.g. a
   * template media header's `example.header_handle`.
   */
  async uploadFile(accessToken: string, appId: string, file: HeaderSample): Promise<string> {
    const query = new URLSearchParams({
      file_name: file.fileName,
      file_length: String(file.bytes.length),
      file_type: file.mimeType,
    });
    const session = await this.call({
      operation: 'starting the upload of the header sample',
      accessToken,
      url: `${this.baseUrl}/${encodeURIComponent(appId)}/uploads?${query}`,
      reply: uploadSessionReply,
      method: 'POST',
    });
    const uploaded = await this.call({
      operation: 'uploading the header sample',
      accessToken,
      url: `${this.baseUrl}/${session.id}`,
      reply: uploadedFileReply,
      file: file.bytes,
    });
    return uploaded.h;
  }

  /** Where a customer's file is and what it is: one Graph call, its URL valid for minutes (Meta's media API). */
  async getMedia(credentials: PhoneNumberCredentials, mediaId: string): Promise<GraphMedia> {
    const query = new URLSearchParams({ phone_number_id: credentials.phoneNumberId });
    const reply = await this.call({
      operation: 'looking up the media',
      accessToken: credentials.accessToken,
      url: `${this.baseUrl}/${encodeURIComponent(mediaId)}?${query}`,
      reply: mediaReply,
    });
    return toGraphMedia(reply);
  }

  /**
   * Streams the file at a URL getMedia returned, with the token. The timeout bounds the wait for the reply and each
   * pause between chunks, not the whole transfer (a video takes as long as it takes).
   */
  async downloadMedia(accessToken: string, url: string): Promise<GraphMediaDownload> {
    const operation = 'downloading the media';
    if (!isMediaUrl(url, this.graphUrl))
      throw graphUnexpectedReplyError(`${operation} (its URL pointed to another host)`);
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        headers: { authorization: `Bearer ${accessToken}` },
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        dispatcher: this.agent,
      });
    } catch (error) {
      throw graphUnreachableError(
        operation,
        (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT',
        systemErrorCode(error),
      );
    }
    const { statusCode, headers } = response;
    if (statusCode < 200 || statusCode >= 300) {
      const body = parseJson(await response.body.text().catch(() => ''));
      throw graphFailureError({
        operation,
        httpStatus: statusCode,
        body,
        retryAfter: headers['retry-after'],
        accessToken,
      });
    }
    const length = Number(headers['content-length']);
    const type = headers['content-type'];
    return {
      body: response.body,
      ...(typeof type === 'string' ? { contentType: type } : {}),
      ...(Number.isSafeInteger(length) && length >= 0 ? { contentLength: length } : {}),
    };
  }

  /** Closes the idle keep-alive connections; calls after this fail. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private messagesUrl(credentials: PhoneNumberCredentials) {
    return `${this.baseUrl}/${encodeURIComponent(credentials.phoneNumberId)}/messages`;
  }

  /** POST /{phone-number-id}/messages with a message; Meta's reply carries its `wamid.`. */
  private async postMessage(credentials: PhoneNumberCredentials, operation: string, json: unknown) {
    const reply = await this.call({
      operation,
      accessToken: credentials.accessToken,
      url: this.messagesUrl(credentials),
      reply: sendReply,
      json,
    });
    return { providerMessageId: reply.messages[0]!.id };
  }

  private async call<T>({ operation, accessToken, url, reply, json, file, method }: GraphCall<T>): Promise<T> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let statusCode: number;
    let retryAfter: string | string[] | undefined;
    let text: string;
    try {
      const response = await request(url, {
        method: method ?? (json === undefined && file === undefined ? 'GET' : 'POST'),
        headers: {
          accept: 'application/json',
          ...(file === undefined
            ? { authorization: `Bearer ${accessToken}` }
            : { authorization: `OAuth ${accessToken}`, file_offset: '0', 'content-type': 'application/octet-stream' }),
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: file ?? (json === undefined ? undefined : JSON.stringify(json)),
        signal,
        dispatcher: this.agent,
      });
      statusCode = response.statusCode;
      retryAfter = response.headers['retry-after'];
      text = await response.body.text();
    } catch (error) {
      // Only the error's code travels on (e.g. ECONNREFUSED): nothing of the request can leak through it.
      throw graphUnreachableError(operation, signal.aborted, systemErrorCode(error));
    }
    const body = parseJson(text);
    if (statusCode < 200 || statusCode >= 300) {
      throw graphFailureError({ operation, httpStatus: statusCode, body, retryAfter, accessToken });
    }
    const parsed = reply.safeParse(body);
    if (!parsed.success) throw graphUnexpectedReplyError(operation);
    return parsed.data;
  }
}

/** The header's parameter: a media file by link, or a text header's variable. */
function headerComponent(header: NonNullable<TemplateMessage['header']>) {
  const parameter =
    header.format === 'text'
      ? { type: 'text', text: header.text }
      : { type: header.format, [header.format]: { link: header.mediaUrl } };
  return { type: 'header', parameters: [parameter] };
}

/** A button's parameter: a URL's variable, a quick reply's payload, a copy code (Meta's `sub_type`s). */
function buttonComponent(button: NonNullable<TemplateMessage['buttons']>[number]) {
  const parameter =
    button.type === 'url'
      ? { type: 'text', text: button.value }
      : button.type === 'quick_reply'
        ? { type: 'payload', payload: button.value }
        : { type: 'coupon_code', coupon_code: button.value };
  return { type: 'button', sub_type: button.type, index: String(button.index), parameters: [parameter] };
}

/** Graph's template message; a template without values to fill carries no `components` at all. */
function templateMessageBody(message: TemplateMessage) {
  const parameters = message.variables.map((text) => ({ type: 'text', text }));
  const components = [
    ...(message.header ? [headerComponent(message.header)] : []),
    ...(parameters.length > 0 ? [{ type: 'body', parameters }] : []),
    ...(message.buttons ?? []).map(buttonComponent),
  ];
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to,
    type: 'template',
    template: {
      name: message.templateName,
      language: { code: message.language },
      ...(components.length > 0 ? { components } : {}),
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function systemErrorCode(error: unknown): string | undefined {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : undefined;
}
