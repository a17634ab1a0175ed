import { z } from 'zod';
import { channelIdParam } from '../common/index.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../platform/webhook-events.js';

/** How long the stream can replay: a `Last-Event-ID` older than this starts with `event: reset`. */
export const EVENT_STREAM_REPLAY_HOURS = 24;
/** Streams one API user may hold open at once; the next is refused with 429 `rate_limited`. */
export const EVENT_STREAM_MAX_PER_USER = 10;
/** A `: ping` comment this often keeps proxies from closing an idle stream. */
export const EVENT_STREAM_PING_SECONDS = 15;
/** What the stream's `retry:` field asks an EventSource-style client to wait before reconnecting. */
export const EVENT_STREAM_RETRY_MS = 3000;
/** The event that tells a resuming client its `Last-Event-ID` is past replay: what follows is live only. */
export const EVENT_STREAM_RESET = 'reset';

const TYPE_LIST_MESSAGE = `must be a comma-separated list of event types: ${WEBHOOK_EVENT_TYPES.join(', ')}`;

/** `types=a,b`: kept as the list of distinct types, every one a known event type. */
const typesParam = z
  .string()
  .max(1000, 'must be at most 1000 characters')
  .transform((text, ctx) => {
    const names = [...new Set(text.split(',').map((name) => name.trim()))];
    const unknown = names.filter((name) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name));
    if (unknown.length) ctx.addIssue({ code: z.ZodIssueCode.custom, message: TYPE_LIST_MESSAGE });
    return names as WebhookEventType[];
  })
  .optional()
  .describe(`Only these event types, comma-separated (${WEBHOOK_EVENT_TYPES.join(', ')}); all when omitted`);

export const eventStreamParams = z
  .object({
    channelId: channelIdParam.describe(
      'Only this channel’s events (an id from channels/list); every channel of the key when omitted',
    ),
    types: typesParam,
  })
  .strict();
export type EventStreamParams = z.input<typeof eventStreamParams>;
export type EventStreamValues = z.output<typeof eventStreamParams>;

/**
 * `GET /api/workspace/v1/events/stream`: Server-Sent Events, the one endpoint outside `contract` (ts-rest models a
 * JSON reply per request, not a stream). The OpenAPI export adds it as a `text/event-stream` GET from this
 * definition, and the server mounts it with the API's key authentication and rate class; the SDK's
 * `sb.events.stream` reads it.
 */
export const EVENT_STREAM = {
  operation: 'workspace.events.stream',
  method: 'GET',
  path: '/api/workspace/v1/events/stream',
  rateClass: 'api_read',
  access: { scope: 'workspace' },
  params: eventStreamParams,
  summary: 'Live stream of the workspace’s events (Server-Sent Events)',
  description:
    'Every event of the channels the key is authorized for, as it happens: one SSE message per event, `id: ' +
    '<cursor>`, `event: <type>`, `data: <the JSON body a webhook delivery of that event carries>`. Reconnect with ' +
    `the \`Last-Event-ID\` header to replay, in order, every event after that cursor from the last ` +
    `${EVENT_STREAM_REPLAY_HOURS} hours, then continue live; an older cursor starts with one \`event: ` +
    `${EVENT_STREAM_RESET}\` and continues live. A \`: ping\` comment comes every ${EVENT_STREAM_PING_SECONDS} s, ` +
    `\`retry: ${EVENT_STREAM_RETRY_MS}\` opens the stream. At most ${EVENT_STREAM_MAX_PER_USER} streams per API ` +
    'user at once (the next is 429 `rate_limited`); a revoked key’s stream ends at its next ping (within 15 s). ' +
    'The key goes in a header, never the URL: browsers use a fetch-based SSE client (the SDK’s `sb.events.stream` ' +
    'is one).',
  example: { types: 'message.received,conversation.updated' },
} as const;
