import {
  EVENT_STREAM,
  EVENT_STREAM_RESET,
  EVENT_STREAM_RETRY_MS,
  RATE_CLASSES,
  WEBHOOK_EVENTS,
  WEBHOOK_EVENT_TYPES,
} from '@switchboard/contract';
import type { OperationObject, PathItemObject, ResponseObject, SchemaObject, TagObject } from 'openapi3-ts';

export const EVENTS_TAG: TagObject = {
  name: 'workspace.events',
  description: 'Workspace API: the live event stream (Server-Sent Events)',
};

/** Why a stream is refused before it starts, per status: the envelope with these codes. */
const REFUSALS: Record<string, { description: string; codes: string[] }> = {
  '400': { description: 'A parameter is invalid (the message names it)', codes: ['invalid_request'] },
  '401': {
    description: 'Missing, malformed or revoked API key, or a key outside the headers',
    codes: ['unauthorized'],
  },
  '403': {
    description: 'A channelId the key is not authorized for, or the platform is inactive',
    codes: ['forbidden', 'platform_inactive'],
  },
  '429': {
    description: 'The api_read budget is spent, or the user already holds the maximum of open streams',
    codes: ['rate_limited'],
  },
  '503': { description: 'The database is unreachable; retry after `Retry-After`', codes: ['service_unavailable'] },
};

const refusal = ({ description, codes }: { description: string; codes: string[] }): ResponseObject => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['success', 'error', 'message'],
        properties: {
          success: { const: false },
          error: { type: 'string', enum: codes },
          message: { type: 'string' },
        },
      } as SchemaObject,
    },
  },
});

const EXAMPLE_EVENT = { type: 'message.received', ...WEBHOOK_EVENTS['message.received'].example };
const EXAMPLE_STREAM =
  `retry: ${EVENT_STREAM_RETRY_MS}\n\n` +
  `id: 1042\nevent: message.received\ndata: ${JSON.stringify(EXAMPLE_EVENT)}\n\n` +
  ': ping\n\n';

const describedBy = (name: 'channelId' | 'types') => EVENT_STREAM.params.shape[name].description;

/**
 * GET events/stream as OpenAPI describes a Server-Sent Events endpoint: a `text/event-stream` 200 whose messages'
 * `data` are the `webhooks` section's bodies (referenced by name), the failures before the stream starts as the
 * envelope, and the `Last-Event-ID` header. Written here because the contract keeps the stream outside ts-rest,
 * whose generator knows only JSON replies.
 */
export function eventStreamPath(): Record<string, PathItemObject> {
  const { points, durationSeconds } = RATE_CLASSES[EVENT_STREAM.rateClass];
  const get: OperationObject = {
    operationId: 'workspaceEventsStream',
    summary: EVENT_STREAM.summary,
    description: EVENT_STREAM.description,
    tags: ['workspace.events'],
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    'x-rate-limit-class': EVENT_STREAM.rateClass,
    'x-rate-limit': { requests: points, windowSeconds: durationSeconds },
    parameters: [
      {
        name: 'channelId',
        in: 'query',
        required: false,
        description: describedBy('channelId'),
        schema: { type: 'string', format: 'uuid' },
      },
      {
        name: 'types',
        in: 'query',
        required: false,
        description: describedBy('types'),
        schema: { type: 'string', maxLength: 1000 },
        example: EVENT_STREAM.example.types,
      },
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description:
          'The `id` of the last event you handled: the stream replays every later event of the replay window, then ' +
          `goes on live; an older or unknown id starts with \`event: ${EVENT_STREAM_RESET}\``,
        schema: { type: 'string' },
      },
    ],
    responses: {
      '200': {
        description:
          'The stream: `retry:`, then one message per event (`id`, `event` = the event type, `data` = the body ' +
          `a webhook delivery carries: one of ${WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}), ` +
          '`: ping` comments, and `event: reset` when a `Last-Event-ID` is too old.',
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: 'Server-Sent Events (text/event-stream)' },
            example: EXAMPLE_STREAM,
          },
        },
      },
      ...Object.fromEntries(Object.entries(REFUSALS).map(([status, refused]) => [status, refusal(refused)])),
    },
  };
  return { [EVENT_STREAM.path]: { get } };
}

/**
 * The definition without its streaming endpoint, for Postman and Portman: newman runs each request to its end, and
 * a stream has none.
 */
export function withoutStreams<D extends { paths: Record<string, unknown> }>(doc: D): D {
  const { [EVENT_STREAM.path]: _stream, ...paths } = doc.paths;
  return { ...doc, paths };
}
