import type { Readable } from 'node:stream';
import { z } from 'zod';

/**
 * A customer's file as Graph describes it (`GET /{media-id}`, Meta's Cloud API reference "Media", summarised in
 * WHATSAPP-CLOUD.md); `url` is short-lived and needs the token too.
 */
export interface GraphMedia {
  url: string;
  mimeType: string;
  sha256?: string;
  /** Bytes; Graph sends it as a string. */
  size?: number;
}

/** The bytes of a customer's file, as they arrive from Meta. */
export interface GraphMediaDownload {
  body: Readable;
  contentType?: string;
  contentLength?: number;
}

/**
 * Hosts a media URL from Graph may point to, beside the configured Graph host itself: Meta's CDN
 * (`lookaside.fbsbx.com`). The access token goes with the download, so never to any other host.
 */
const MEDIA_HOSTS = /(^|\.)(fbsbx|facebook)\.com$/;

/** Graph's reply to `GET /{media-id}`; `file_size` comes as a string. */
export const mediaReply = z.object({
  url: z.string().url(),
  mime_type: z.string().min(1),
  sha256: z.string().optional().catch(undefined),
  file_size: z.union([z.string(), z.number()]).transform(Number).optional().catch(undefined),
});

/** The reply as GraphClient returns it (a size that is not a whole number of bytes is left out). */
export function toGraphMedia(reply: z.infer<typeof mediaReply>): GraphMedia {
  const size = reply.file_size;
  return {
    url: reply.url,
    mimeType: reply.mime_type,
    ...(reply.sha256 === undefined ? {} : { sha256: reply.sha256 }),
    ...(size !== undefined && Number.isSafeInteger(size) && size >= 0 ? { size } : {}),
  };
}

/** Whether the access token may go to this media URL: the configured Graph host, or Meta's CDN over https. */
export function isMediaUrl(text: string, graphUrl: string): boolean {
  const url = URL.parse(text);
  if (!url) return false;
  if (url.origin === new URL(graphUrl).origin) return true;
  return url.protocol === 'https:' && MEDIA_HOSTS.test(url.hostname);
}
