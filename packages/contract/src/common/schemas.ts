import { z } from 'zod';
import type { FailureExample } from './errors.js';

/** Any UUID: a malformed id is a 400 naming the field, never a lookup that ends in 403 or 404. */
export const uuidParam = () =>
  z.string({ required_error: 'is required' }).min(1, 'must not be empty').uuid('must be a UUID');

/** Phone numbers are stored and compared as digits only: callers may type `+`, spaces, dashes or parentheses. */
export const stripPhone = (value: string) => value.replace(/[\s+\-()]/g, '');

/** A phone number parameter: stripped to its digits, which must then be 8 to 15 (E.164 with country code). */
export const phoneParam = () =>
  z
    .string({ required_error: 'is required' })
    .transform(stripPhone)
    .refine((digits) => /^\d{8,15}$/.test(digits), 'must be 8 to 15 digits with country code');

export const idSchema = z.string().describe('Identifier (UUID)');
export const timestampSchema = z.string().describe('ISO 8601 timestamp, UTC');

/** What a workspace endpoint answers when channelId is omitted and the key has several channels. */
export const CHANNEL_REQUIRED_EXAMPLE: FailureExample = {
  summary: 'channelId left out with a key authorized for several channels',
  status: 400,
  error: 'invalid_request',
  message: 'channelId: is required: this key is authorized for 2 channels (see channels/list)',
};

/** Optional on every workspace endpoint: chosen automatically when the key has exactly one channel. */
export const channelIdParam = uuidParam()
  .optional()
  .describe(
    'Channel to act on (an id from channels/list). May be omitted when the key is authorized for exactly one ' +
      'channel; ' +
      'required when it has several (else 400 `invalid_request`, `channelId: is required: …`).',
  );

export const channelScoped = { channelId: channelIdParam };

/**
 * The text rules every string parameter gets (see strictness.ts): PostgreSQL text cannot hold NUL nor JSON an
 * unpaired UTF-16 surrogate (`"\ud800"`), and names, titles, ids and codes are one line, so they refuse every C0
 * control character (and DEL). Free text (the fields in MULTI_LINE_PARAMS) may also hold tab and line breaks.
 * Written as patterns (over UTF-16 code units: a surrogate is allowed only as half of a pair) so OpenAPI shows them.
 */
export const SINGLE_LINE_TEXT = {
  pattern: /^(?:[^\u0000-\u001f\u007f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/,
  message: 'must not contain control characters (line breaks, tabs, NUL) or unpaired surrogates',
};
export const MULTI_LINE_TEXT = {
  pattern: /^(?:[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/,
  message: 'must not contain NUL, control characters other than tab and line breaks, or unpaired surrogates',
};
/** Parameters that hold free text; every other string parameter is single-line. */
export const MULTI_LINE_PARAMS: ReadonlySet<string> = new Set(['description', 'message', 'variables', 'customFields']);
