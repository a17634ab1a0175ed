import { z } from 'zod';
import type { FailureExample } from './errors.js';

/** Any UUID: a malformed id is a 400 naming the field, never a lookup that ends in 403 or 404. */
export const uuidParam = () =>
  z.string({ required_error: 'is required' }).min(1, 'must not be empty').uuid('must be a UUID');

/** Wherever a parameter names a user, `me` names the key's own user (see workspace/me). */
export const ME = 'me';

/**
 * A user id, or `me`: one string schema rather than a union, so OpenAPI 3.0 keeps a `type` beside `nullable` (the
 * MCP tools' schemas need it).
 */
export const userIdParam = () =>
  z
    .string({ required_error: 'is required' })
    .refine((value) => value === ME || uuidParam().safeParse(value).success, 'must be a user id (UUID) or `me`');

/** Phone numbers are stored and compared as digits only: callers may type `+`, spaces, dashes or parentheses. */
export const stripPhone = (value: string) => value.replace(/[\s+\-()]/g, '');

/** A phone number parameter: stripped to its digits, which must then be 8 to 15 (E.164 with country code). */
export const phoneParam = () =>
  z
    .string({ required_error: 'is required' })
    .transform(stripPhone)
    .refine((digits) => /^\d{8,15}$/.test(digits), 'must be 8 to 15 digits with country code');

/** The instants a time parameter may name: years 1 to 9999 in UTC, which PostgreSQL's timestamptz and ISO 8601's
 * four-digit years both hold (PostgreSQL has no year 0, and `0001-01-01T00:00:00+14:00` is still in year 0). */
export const TIME_RANGE = { min: '0001-01-01T00:00:00Z', max: '9999-12-31T23:59:59.999Z' } as const;
const ISO_TIME_MESSAGE = 'must be an ISO 8601 time like 2026-01-31T09:00:00Z';
const RANGE_MESSAGE = `must be between ${TIME_RANGE.min} and 9999-12-31T23:59:59Z`;
const [MIN_TIME, MAX_TIME] = [Date.parse(TIME_RANGE.min), Date.parse(TIME_RANGE.max)];

const isoTimePattern = z.string().datetime({ offset: true });

/**
 * A time parameter's schema: ISO 8601 text in, or a Date (JSON carries it as ISO 8601, UTC); written out rather than
 * named, so the SDK's types print `string | Date`.
 */
export type TimeParam = z.ZodEffects<z.ZodString, string, string | Date>;

/**
 * An ISO 8601 time with an offset (or Z) naming a real instant in TIME_RANGE; anything else is a 400 naming it. Its
 * input type also takes a Date: a Date reaches the server as JSON, which writes it as ISO 8601 (`toJSON`).
 */
export const isoTimeParam = () =>
  z
    .string()
    .datetime({ offset: true, message: ISO_TIME_MESSAGE })
    .superRefine((value, ctx) => {
      // The pattern's own failure is reported once, above. It lets impossible dates (02-30) and offsets (+99:99)
      // through: the instant itself must exist, and be one PostgreSQL can store.
      if (!isoTimePattern.safeParse(value).success) return;
      const time = Date.parse(value);
      if (Number.isNaN(time)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: ISO_TIME_MESSAGE });
      else if (time < MIN_TIME || time > MAX_TIME)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: RANGE_MESSAGE });
    }) as unknown as TimeParam;

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
export const MULTI_LINE_PARAMS: ReadonlySet<string> = new Set([
  'description',
  'message',
  'variables',
  'customFields',
  'actions',
  'text',
  'caption',
  'interactive',
  'body',
]);
