import type { Readable } from 'node:stream';
import type { TemplateMediaFormat } from '@switchboard/contract';
import { Agent, request } from 'undici';
import { ValidationError } from '../../kit/errors.js';
import {
  checkDestination,
  pinnedLookup,
  resolveWithin,
  systemResolver,
  type DestinationPolicy,
  type ResolveAll,
} from '../webhook-transport/index.js';

/**
 * A template media header's sample, fetched by the server from the `header.mediaUrl` a tenant gave, to be uploaded
 * to Meta (Meta's resumable upload API takes the bytes, not a link). The tenant chooses the URL and our server makes
 * the request, so it goes through the webhooks' server-side request forgery guard (public addresses only, unless
 * ALLOW_HTTP_WEBHOOKS), connects only to the addresses it checked, follows no redirect, and stops at Meta's limit
 * for the header's format. Every failure is a 400 naming `header.mediaUrl` with the reason.
 */

export interface HeaderSample {
  bytes: Buffer;
  /** One of Meta's upload types (SAMPLE_TYPES). */
  mimeType: string;
  /** The URL's last path segment, or `sample.<ending>`: what Meta's upload session is told. */
  fileName: string;
}

export interface SampleFetchOptions {
  policy: DestinationPolicy;
  /** Budget for the DNS answer, the reply's headers and each pause in its body. */
  timeoutMs: number;
  /** The whole fetch, body included. */
  deadlineMs?: number;
  resolve?: ResolveAll;
}

const MB = 1024 * 1024;

/**
 * Per header format: the file types Meta's resumable upload API takes for it (Graph API "Resumable Upload API") and
 * Meta's media size limit for its kind of file (Cloud API "Media"), so Meta is never sent what it would refuse.
 */
const SAMPLE_RULES: Record<TemplateMediaFormat, { types: readonly string[]; maxBytes: number; limit: string }> = {
  image: { types: ['image/jpeg', 'image/png'], maxBytes: 5 * MB, limit: '5 MB' },
  video: { types: ['video/mp4'], maxBytes: 16 * MB, limit: '16 MB' },
  document: { types: ['application/pdf'], maxBytes: 100 * MB, limit: '100 MB' },
};

/** Types a server may send for any file, in which case the URL's ending says what it is. */
const UNTYPED = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const TYPE_OF_ENDING: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
};
const ENDING_OF_TYPE: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
};

const DEFAULT_DEADLINE_MS = 60_000;
const CONNECT_TIMEOUT_MS = 3000;

const refused = (problem: string) => ValidationError.field('header.mediaUrl', problem);

/** The file's type as Meta's upload takes it: the reply's Content-Type, or the URL's ending when that says nothing. */
function sampleType(contentType: string | string[] | undefined, url: URL): string {
  const given = String(contentType ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (!UNTYPED.has(given)) return given === 'image/jpg' ? 'image/jpeg' : given;
  return TYPE_OF_ENDING[url.pathname.split('.').at(-1)?.toLowerCase() ?? ''] ?? 'an unknown type';
}

/** Left percent-encoded (a malformed escape must not fail the upload): Meta only shows the name. */
function fileNameOf(url: URL, mimeType: string): string {
  const last = (url.pathname.split('/').at(-1) ?? '').replace(/[^\w.-]+/g, '_');
  return /\w/.test(last) ? last.slice(-200) : `sample.${ENDING_OF_TYPE[mimeType]}`;
}

function unreachable(error: unknown, timeoutMs: number): ValidationError {
  const code = (error as { code?: unknown }).code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return refused(`could not be fetched: no answer within ${timeoutMs} ms`);
  if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError')
    return refused('could not be fetched: the download took too long');
  const reason = typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : '';
  return refused(`could not be fetched${reason}`);
}

/** Stops a reply's body mid-way: undici reports that as an error, which nobody waits for any more. */
function discard(body: Readable) {
  body.on('error', () => {});
  body.destroy();
}

/** Fetches the sample of a `format` header from `rawUrl` (https, checked by the contract), within Meta's limits. */
export async function fetchHeaderSample(
  rawUrl: string,
  format: TemplateMediaFormat,
  options: SampleFetchOptions,
): Promise<HeaderSample> {
  const rules = SAMPLE_RULES[format];
  const { timeoutMs } = options;
  const resolve = resolveWithin(options.resolve ?? systemResolver, timeoutMs);
  const destination = await checkDestination(rawUrl, options.policy, resolve).catch(() => undefined);
  if (!destination) throw refused('could not be fetched: its host name does not resolve');
  if (!destination.allowed) throw refused(destination.reason);
  const agent = new Agent({
    connect: { lookup: pinnedLookup(destination.addresses), timeout: Math.min(CONNECT_TIMEOUT_MS, timeoutMs) },
  });
  try {
    const response = await request(destination.url, {
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(options.deadlineMs ?? DEFAULT_DEADLINE_MS),
      dispatcher: agent,
    }).catch((error: unknown) => Promise.reject(unreachable(error, timeoutMs)));
    const { statusCode, headers, body } = response;
    const header = `${format === 'image' ? 'an' : 'a'} ${format} header`;
    const tooLarge = refused(`is larger than ${rules.limit}, Meta’s limit for ${header}`);
    const mimeType = sampleType(headers['content-type'], destination.url);
    const problem =
      statusCode < 200 || statusCode >= 300
        ? refused(`could not be fetched: it answered HTTP ${statusCode}`)
        : !rules.types.includes(mimeType)
          ? refused(`is ${mimeType}; Meta takes ${rules.types.join(' or ')} for ${header}`)
          : Number(headers['content-length']) > rules.maxBytes
            ? tooLarge
            : undefined;
    if (problem) {
      discard(body);
      throw problem;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > rules.maxBytes) {
          discard(body);
          throw tooLarge;
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      throw error instanceof ValidationError ? error : unreachable(error, timeoutMs);
    }
    if (size === 0) throw refused('is empty');
    return { bytes: Buffer.concat(chunks, size), mimeType, fileName: fileNameOf(destination.url, mimeType) };
  } finally {
    void agent.close();
  }
}
