import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RICH_TYPES, richMessageCode } from './graph-rich-messages.js';

/**
 * A stand-in for Meta's Graph API (the outside world, so a fake is allowed): a real HTTP server on a random port
 * that answers as Meta's Cloud API reference describes — phone number lookup, template sends, template listing
 * with cursor paging and full `paging.next` URLs, media lookups and downloads, Graph's error body — and records what
 * it received.
 *
 * Session messages (text, media by https link; interactive messages, reactions and locations in Meta's shape and
 * within Meta's limits, graph-rich-messages.ts) and read receipts (with or without the typing indicator) are accepted.
 * Files are uploaded with the resumable upload API (`POST /{app-id}/uploads`, then `POST /{upload-id}` with
 * `Authorization: OAuth …` and `file_offset: 0`), and a template's media header must carry the handle of one.
 * Refusals: an unknown bearer token gets 401 code 190; unknown ids get 400 code 100; a send of a template that is
 * not approved in that language gets 132001, a wrong parameter count 132000. Anything else (5xx, rate limits, slow
 * replies, dropped connections) is scripted with `replyOnce`/`replyAlways`, which take precedence over the behaviour
 * above; `answerDelayMs` slows every answer alike.
 */

interface StandInPhoneNumber {
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /** GREEN, YELLOW, RED or UNKNOWN: what `?fields=quality_rating` answers (GREEN when not set). */
  qualityRating?: string;
}

export interface StandInTemplate {
  /** Meta's id; given on creation, else the listing makes one up from the position. */
  id?: string;
  name: string;
  language: string;
  status: string;
  category: string;
  /** The BODY component's text; `{{n}}` placeholders decide how many parameters a send must carry. */
  body: string;
  /** Components as created through `POST /{waba-id}/message_templates` (the listing serves them as they are). */
  components?: unknown[];
}

/** A file a customer sent, kept by the stand-in as Meta keeps it. */
export interface StandInMedia {
  mimeType: string;
  bytes: Buffer;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. `/v23.0/1065/messages`. */
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  headers: IncomingHttpHeaders;
  /** The JSON body parsed; undefined when there is none or it is not JSON (a file upload's bytes). */
  body: unknown;
  /** The body as received. */
  raw: Buffer;
  /** When it arrived (Date.now()): how pacing is measured. */
  receivedAt: number;
}

export interface ScriptedReply {
  /** Which requests it answers (all when omitted). */
  match?: (request: RecordedRequest) => boolean;
  /** Unless `drop`. */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow Graph, for timeouts). */
  delayMs?: number;
  /** Close the connection without answering (a network failure). */
  drop?: boolean;
}

export interface GraphStandInOptions {
  version?: string;
  accessTokens?: string[];
  phoneNumbers?: StandInPhoneNumber[];
  /** Templates per WABA id. */
  templates?: Record<string, StandInTemplate[]>;
  /** Largest page served whatever `limit` asks for, so a few templates span several pages. */
  maxPageSize?: number;
  /** Customers' files by media id. */
  media?: Record<string, StandInMedia>;
  /** Meta app ids files may be uploaded on (the resumable upload API). */
  appIds?: string[];
  /**
   * Every Graph answer (not media downloads) waits this long, unless a scripted reply sets its own `delayMs`: a slow
   * Graph, so a steady stream of sends always has calls in flight for a crash or an outage to land on.
   */
  answerDelayMs?: number;
}

export interface GraphStandIn {
  /** Base URL without the version: what WHATSAPP_GRAPH_URL would be. */
  url: string;
  version: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far (keep-alive reuse keeps this low). */
  connections(): number;
  templates: Record<string, StandInTemplate[]>;
  /** Customers' files by media id: `GET /{media-id}` describes one, its `url` serves the bytes. */
  media: Record<string, StandInMedia>;
  /** Files uploaded with the resumable upload API, by the handle it answered. */
  uploads: Map<string, StandInUpload>;
  replyOnce(reply: ScriptedReply): void;
  replyAlways(reply: ScriptedReply): void;
  close(): Promise<void>;
}

/** A file uploaded with the resumable upload API, as its session described it. */
interface StandInUpload {
  appId: string;
  fileName: string;
  fileType: string;
  bytes: Buffer;
}

/** The file types Meta's resumable upload API takes. */
const UPLOAD_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/jpg', 'image/png', 'video/mp4']);
const MEDIA_HEADER_FORMATS = new Set(['IMAGE', 'VIDEO', 'DOCUMENT']);

/** Where the stand-in serves media bytes (Meta's are on lookaside.fbsbx.com, outside the versioned Graph paths). */
const MEDIA_DOWNLOAD_PATH = '/whatsapp_business/attachments/';

/** Graph's error body. */
export function graphError(code: number, message: string, extra: Record<string, unknown> = {}) {
  return {
    error: {
      message,
      type: code === 190 ? 'OAuthException' : 'GraphMethodException',
      code,
      fbtrace_id: 'AStandIn',
      ...extra,
    },
  };
}

/**
 * The body Meta expects for a template message (Meta's Cloud API reference), written out here rather than taken
 * from the server's code, so a test compares what was sent with the documented shape.
 */
export function templateMessageBody(to: string, name: string, language: string, variables: string[]) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name,
      language: { code: language },
      ...(variables.length > 0 && {
        components: [{ type: 'body', parameters: variables.map((text) => ({ type: 'text', text })) }],
      }),
    },
  };
}

const SESSION_TYPES = new Set(['text', 'image', 'document', 'audio', 'video', ...RICH_TYPES]);

export async function startGraphStandIn(options: GraphStandInOptions = {}): Promise<GraphStandIn> {
  const version = options.version ?? 'v23.0';
  const accessTokens = new Set(options.accessTokens ?? []);
  const phoneNumbers = new Map((options.phoneNumbers ?? []).map((number) => [number.phoneNumberId, number]));
  const templates = options.templates ?? {};
  const maxPageSize = options.maxPageSize ?? 100;
  const media = options.media ?? {};
  const answerDelayMs = options.answerDelayMs ?? 0;
  const appIds = new Set(options.appIds ?? []);
  /** Open upload sessions by id (`upload:…`, without its `?sig=`). */
  const sessions = new Map<string, Omit<StandInUpload, 'bytes'> & { fileLength: number; sig: string }>();
  const uploads = new Map<string, StandInUpload>();
  const requests: RecordedRequest[] = [];
  const scripted: Array<ScriptedReply & { once: boolean }> = [];
  let connections = 0;
  let sent = 0;
  let url = '';

  function answer(request: RecordedRequest): { status: number; body: unknown } {
    const [, , target] = request.path.split('/');
    if (request.method === 'POST' && target?.startsWith('upload:')) return transfer(target, request);
    const token = request.authorization?.replace(/^Bearer /, '');
    if (token === undefined || !accessTokens.has(token)) {
      return {
        status: 401,
        body: graphError(190, 'Error validating access token: The session is invalid because the user logged out.', {
          error_subcode: 467,
        }),
      };
    }
    const [, pathVersion, id, edge, ...rest] = request.path.split('/');
    if (pathVersion !== version || id === undefined || rest.length > 0) return unsupported(request.path);
    if (request.method === 'GET' && edge === undefined && media[id]) return describeMedia(id, media[id]);
    if (request.method === 'GET' && edge === undefined) {
      const number = phoneNumbers.get(id);
      if (!number) return unsupported(id);
      return {
        status: 200,
        body: {
          display_phone_number: number.displayPhoneNumber,
          verified_name: number.verifiedName,
          quality_rating: number.qualityRating ?? 'GREEN',
          id,
        },
      };
    }
    if (request.method === 'POST' && edge === 'messages') {
      const number = phoneNumbers.get(id);
      return number ? send(number, request.body) : unsupported(id);
    }
    if (request.method === 'GET' && edge === 'message_templates') {
      const list = templates[id];
      return list ? templatePage(id, list, request.query) : unsupported(id);
    }
    if (request.method === 'POST' && edge === 'uploads') return startUpload(id, request.query);
    if (request.method === 'POST' && edge === 'message_templates' && templates[id])
      return createTemplate(templates[id], request.body);
    if (request.method === 'DELETE' && edge === 'message_templates' && templates[id])
      return deleteTemplates(id, request.query);
    if (request.method === 'POST' && edge === undefined) return editTemplate(id, request.body);
    return unsupported(request.path);
  }

  /** `POST /{app-id}/uploads?file_name&file_length&file_type`: an upload session for one file, `{id: "upload:…"}`. */
  function startUpload(appId: string, query: Record<string, string>) {
    if (!appIds.has(appId)) return unsupported(appId);
    const fileLength = Number(query.file_length);
    const missing = ['file_name', 'file_length', 'file_type'].find((name) => !query[name]);
    if (missing) return { status: 400, body: graphError(100, `(#100) The parameter ${missing} is required`) };
    if (!Number.isSafeInteger(fileLength) || fileLength <= 0)
      return { status: 400, body: graphError(100, '(#100) Param file_length must be a positive integer') };
    if (!UPLOAD_TYPES.has(query.file_type!))
      return { status: 400, body: graphError(100, `(#100) Param file_type is not a supported type`) };
    const id = `upload:${Buffer.from(`${sessions.size + 1}:${appId}:${query.file_name}`).toString('base64url')}`;
    const sig = `STANDIN${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;
    sessions.set(id, { appId, fileName: query.file_name!, fileType: query.file_type!, fileLength, sig });
    return { status: 200, body: { id: `${id}?sig=${sig}` } };
  }

  /**
   * `POST /{upload-id}` with `Authorization: OAuth {token}`, `file_offset` and the bytes: the whole file from offset
   * 0 (what Switchboard sends) answers its handle, `{h}`; the bytes must be as many as the session declared.
   */
  function transfer(id: string, request: RecordedRequest) {
    const token = request.authorization?.match(/^OAuth (.+)$/)?.[1];
    if (token === undefined || !accessTokens.has(token))
      return { status: 401, body: graphError(190, 'Error validating access token: expected OAuth {access-token}') };
    const session = sessions.get(id);
    if (!session || request.query.sig !== session.sig) return unsupported(id);
    if (request.headers.file_offset !== '0')
      return { status: 400, body: graphError(100, '(#100) file_offset must be 0 for a new upload') };
    if (request.raw.length !== session.fileLength) {
      const problem = `(#100) Received ${request.raw.length} bytes; the session declared ${session.fileLength}`;
      return { status: 400, body: graphError(100, problem) };
    }
    sessions.delete(id);
    const handle = `4::${Buffer.from(session.fileType).toString('base64')}:ARStandIn${uploads.size + 1}`;
    const { fileLength: _length, sig: _sig, ...file } = session;
    uploads.set(handle, { ...file, bytes: request.raw });
    return { status: 200, body: { h: handle } };
  }

  /** A media header's sample must be the handle of a file uploaded here (Meta's `example.header_handle`). */
  function mediaHeaderProblem(components: unknown) {
    const header = (components as Array<{ type?: string; format?: string; example?: { header_handle?: unknown } }>)
      ?.filter((component) => component.type === 'HEADER')
      .find((component) => MEDIA_HEADER_FORMATS.has(component.format ?? ''));
    if (!header) return undefined;
    const handle = (header.example?.header_handle as unknown[] | undefined)?.[0];
    if (typeof handle === 'string' && uploads.has(handle)) return undefined;
    return {
      status: 400,
      body: graphError(100, 'Invalid parameter', {
        error_user_title: 'Header sample missing',
        error_user_msg: 'A media header needs example.header_handle: a file uploaded with the Resumable Upload API',
      }),
    };
  }

  /** Meta's creation: a name taken in that language is refused (code 100, subcode 2388024), else PENDING. */
  function createTemplate(list: StandInTemplate[], body: unknown) {
    const created = body as { name: string; language: string; category: string; components: unknown[] };
    const headerProblem = mediaHeaderProblem(created.components);
    if (headerProblem) return headerProblem;
    if (list.some((t) => t.name === created.name && t.language === created.language)) {
      return {
        status: 400,
        body: graphError(100, 'Invalid parameter', {
          error_subcode: 2388024,
          error_user_msg: `Content in this language already exists for ${created.name}`,
        }),
      };
    }
    const id = String(5000 + Object.values(templates).flat().length);
    const bodyText = (created.components as Array<{ type: string; text?: string }>).find((c) => c.type === 'BODY');
    list.push({ id, ...created, status: 'PENDING', body: bodyText?.text ?? '' });
    return { status: 200, body: { id, status: 'PENDING', category: created.category } };
  }

  function editTemplate(id: string, body: unknown) {
    const template = Object.values(templates)
      .flat()
      .find((t) => t.id === id);
    if (!template) return unsupported(id);
    const headerProblem = mediaHeaderProblem((body as { components?: unknown }).components ?? []);
    if (headerProblem) return headerProblem;
    Object.assign(template, body as object, { status: 'PENDING' });
    return { status: 200, body: { success: true } };
  }

  function deleteTemplates(wabaId: string, query: Record<string, string>) {
    const before = templates[wabaId]!.length;
    templates[wabaId] = templates[wabaId]!.filter(
      (t) => t.name !== query.name || (query.hsm_id !== undefined && t.id !== query.hsm_id),
    );
    return templates[wabaId]!.length < before
      ? { status: 200, body: { success: true } }
      : { status: 400, body: graphError(100, `Template name ${query.name} does not exist`) };
  }

  /** Meta's media object: its `url` (on this stand-in, like lookaside.fbsbx.com) needs the bearer token as well. */
  function describeMedia(id: string, file: StandInMedia) {
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        url: `${url}${MEDIA_DOWNLOAD_PATH}?mid=${encodeURIComponent(id)}&ext=${Date.now()}`,
        mime_type: file.mimeType,
        sha256: createHash('sha256').update(file.bytes).digest('base64'),
        file_size: String(file.bytes.length),
        id,
      },
    };
  }

  /** The bytes behind a media URL, to the bearer of a known token only (as Meta's CDN answers). */
  function download(request: RecordedRequest, res: ServerResponse) {
    const token = request.authorization?.replace(/^Bearer /, '');
    const file = media[request.query.mid ?? ''];
    if (token === undefined || !accessTokens.has(token) || !file) {
      res.writeHead(token !== undefined && accessTokens.has(token) ? 404 : 401, { 'content-type': 'text/plain' });
      return void res.end('Not available');
    }
    res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.bytes.length) });
    res.end(file.bytes);
  }

  function send(number: StandInPhoneNumber, body: unknown): { status: number; body: unknown } {
    const message = body as {
      messaging_product?: string;
      type?: string;
      to?: string;
      template?: {
        name?: string;
        language?: { code?: string };
        components?: Array<{ type: string; parameters: unknown[] }>;
      };
    };
    if (message.messaging_product === 'whatsapp' && (body as { status?: unknown }).status === 'read') {
      return readReceipt(body as { message_id?: unknown });
    }
    if (message.messaging_product === 'whatsapp' && message.to && SESSION_TYPES.has(message.type ?? '')) {
      return sessionSend(body as Record<string, unknown>, message.to);
    }
    if (
      message.messaging_product !== 'whatsapp' ||
      message.type !== 'template' ||
      !message.to ||
      !message.template?.name
    ) {
      return { status: 400, body: graphError(100, '(#100) Invalid parameter') };
    }
    const template = (templates[number.wabaId] ?? []).find(
      (candidate) =>
        candidate.name === message.template?.name &&
        candidate.language === message.template.language?.code &&
        candidate.status === 'APPROVED',
    );
    if (!template) {
      return {
        status: 404,
        body: graphError(132001, '(#132001) Template name does not exist in the translation', {
          error_data: {
            messaging_product: 'whatsapp',
            details: `template name (${message.template.name}) does not exist in ${message.template.language?.code}`,
          },
        }),
      };
    }
    const expected = new Set(template.body.match(/\{\{\d+\}\}/g) ?? []).size;
    const given = message.template.components?.find((component) => component.type === 'body')?.parameters.length ?? 0;
    if (given !== expected) {
      return {
        status: 400,
        body: graphError(132000, '(#132000) Number of parameters does not match the expected number of params', {
          error_data: {
            messaging_product: 'whatsapp',
            details:
              `body: number of localizable_params (${given}) does not match the expected number of params ` +
              `(${expected})`,
          },
        }),
      };
    }
    return accepted(message.to);
  }

  function accepted(to: string) {
    sent += 1;
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: `wamid.STANDIN${String(sent).padStart(6, '0')}`, message_status: 'accepted' }],
      },
    };
  }

  /** A session message: the type's object must be there, text with a body, media with an https link. */
  function sessionSend(message: Record<string, unknown>, to: string) {
    const type = message.type as string;
    if (RICH_TYPES.has(type)) {
      const code = richMessageCode(type, message[type]);
      if (code === null) return accepted(to);
      const title = code === 100 ? '(#100) Invalid parameter' : '(#131009) Parameter value is not valid';
      return { status: 400, body: graphError(code, title) };
    }
    const content = message[type] as { body?: unknown; link?: unknown } | undefined;
    const valid =
      type === 'text'
        ? typeof content?.body === 'string'
        : typeof content?.link === 'string' && content.link.startsWith('https://');
    return valid ? accepted(to) : { status: 400, body: graphError(100, '(#100) Invalid parameter') };
  }

  function readReceipt(receipt: { message_id?: unknown; typing_indicator?: unknown }) {
    const typing = receipt.typing_indicator;
    const typingOk = typing === undefined || (typing as { type?: unknown } | null)?.type === 'text';
    return typeof receipt.message_id === 'string' && receipt.message_id.length > 0 && typingOk
      ? { status: 200, body: { success: true } }
      : { status: 400, body: graphError(100, '(#100) Invalid parameter') };
  }

  function templatePage(wabaId: string, list: StandInTemplate[], query: Record<string, string>) {
    const limit = Math.min(Number(query.limit ?? 25) || 25, maxPageSize);
    const start = query.after ? Number(Buffer.from(query.after, 'base64url').toString()) : 0;
    const data = list.slice(start, start + limit).map((template, index) => ({
      // Kept once given, so an edit or a delete can name it.
      id: (template.id ??= String(1000 + start + index)),
      name: template.name,
      status: template.status,
      category: template.category,
      language: template.language,
      components: template.components ?? [
        { type: 'HEADER', format: 'TEXT', text: 'Update' },
        { type: 'BODY', text: template.body },
        { type: 'FOOTER', text: 'Stand-in' },
      ],
    }));
    const cursor = (position: number) => Buffer.from(String(position)).toString('base64url');
    const end = start + data.length;
    const next = new URLSearchParams({ ...query, after: cursor(end) });
    return {
      status: 200,
      body: {
        data,
        paging: {
          cursors: { before: cursor(start), after: cursor(end) },
          ...(end < list.length ? { next: `${url}/${version}/${wabaId}/message_templates?${next}` } : {}),
        },
      },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const parsedUrl = new URL(req.url ?? '/', url);
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: parsedUrl.pathname,
      query: Object.fromEntries(parsedUrl.searchParams),
      authorization: req.headers.authorization,
      headers: req.headers,
      body: jsonOf(raw),
      raw,
      receivedAt: Date.now(),
    };
    requests.push(request);
    const scriptIndex = scripted.findIndex((reply) => reply.match?.(request) ?? true);
    const script = scripted[scriptIndex];
    if (script?.once) scripted.splice(scriptIndex, 1);
    if (!script && request.method === 'GET' && request.path === MEDIA_DOWNLOAD_PATH) return download(request, res);
    const reply = script ?? answer(request);
    const delayMs = script?.delayMs ?? answerDelayMs;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (script?.drop) return void res.socket?.destroy();
    if (res.destroyed) return;
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...script?.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    version,
    requests,
    connections: () => connections,
    templates,
    media,
    uploads,
    replyOnce: (reply) => scripted.push({ ...reply, once: true }),
    replyAlways: (reply) => scripted.push({ ...reply, once: false }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function jsonOf(raw: Buffer): unknown {
  try {
    return raw.length === 0 ? undefined : JSON.parse(raw.toString());
  } catch {
    return undefined;
  }
}

function unsupported(what: string) {
  return {
    status: 400,
    body: graphError(
      100,
      `Unsupported get request. Object with ID '${what}' does not exist, cannot be loaded due to missing ` +
        `permissions, or does not support this operation.`,
      { error_subcode: 33 },
    ),
  };
}
