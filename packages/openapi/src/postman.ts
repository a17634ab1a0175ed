import { contract, contractRoutes, EXAMPLE_IDS } from '@switchboard/contract';
import { convertV2 } from 'openapi-to-postmanv2';
import type { OperationObject } from 'openapi3-ts';
import { serverRootOf, type OpenAPIObject } from './openapi.js';
import { withoutStreams } from './event-stream.js';
import { setupScript } from './postman-setup.js';
import { WEBHOOK_VARIABLES, withWebhookExamples } from './postman-webhooks.js';
import { replyTests } from './postman-tests.js';

/** The slice of a Postman v2.1 collection this module edits (https://schema.postman.com/collection/json/v2.1.0). */
interface PostmanVariable {
  key: string;
  value: string;
  type?: string;
  description?: string;
}
interface PostmanQueryParam {
  key: string;
  value?: string;
  disabled?: boolean;
}
interface PostmanRequest {
  method: string;
  url: { raw?: string; host?: string[]; path?: string[]; query?: PostmanQueryParam[] };
  header?: { key: string; value: string }[];
  auth?: unknown;
  body?: { mode?: string; raw?: string; [key: string]: unknown };
}
export interface PostmanEvent {
  listen: 'test' | 'prerequest';
  script: { type: 'text/javascript'; exec: string[] };
}
export interface PostmanItem {
  name: string;
  description?: unknown;
  item?: PostmanItem[];
  request?: PostmanRequest;
  event?: PostmanEvent[];
}
export interface PostmanCollection {
  info: { name: string; schema: string; [key: string]: unknown };
  item: PostmanItem[];
  auth?: unknown;
  variable?: PostmanVariable[];
  [key: string]: unknown;
}

/** What each collection variable is, for people importing the collection. */
const VARIABLE_HELP: Record<string, string> = {
  baseUrl: 'Server root, e.g. http://localhost:3000 (no /api/...)',
  apiKey: 'Your API key (Developer Portal → Generate API Key); sent as the X-API-Key header',
  platformId: 'Your platform id: the `id` in the reply of Platform → id/list (filled in by that request when empty)',
  channelId:
    'A channel id from Workspace → channels/list (filled in with the first channel by that request when empty)',
  userId:
    'A user of your platform with an active base subscription (for addon/manage; filled in from users/list by its ' +
    'pre-request script when empty). Plans and subscriptions are made by the operator (`pnpm cli seed`), not by ' +
    'the API',
  addonId:
    'An active add-on plan id of your platform with a monthly price (for addon/manage; filled in from addon/list by ' +
    'its pre-request script when empty)',
  ticketId:
    'A ticket id or shortId of your platform (for tickets/get; filled in with the newest ticket by tickets/list, or ' +
    'with the one tickets/manage opens, when empty)',
  contactId: 'Set by the pre-request script of contacts/delete, which creates a throwaway contact to delete',
  automationId:
    'An automation id of the channel (for automations/manage, which pauses it; filled in with the newest automation ' +
    'by automations/list when empty, else automations/manage’s pre-request script creates a paused one)',
  broadcastId:
    'A broadcast id of the channel (for broadcasts/recipients; broadcasts/manage’s pre-request script creates a ' +
    'throwaway scheduled broadcast to cancel)',
  scheduledMsgid:
    'The msgid of a scheduled message (for chat/message/cancel; its pre-request script schedules a throwaway ' +
    'template send for tomorrow to cancel)',
  templateName:
    'An approved template of the channel with two placeholders (for chat/templates/send, the broadcast and the ' +
    'scheduled send; filled in from chat/templates/list when empty)',
  customerMsgid:
    'A customer’s message (for chat/message/read and chat/message/send’s replyTo; set by sandbox/receive, which ' +
    'plays one on a sandbox channel: on a WhatsApp channel, set it to a message your customer sent)',
  sentMsgid: 'An outbound message (for chat/message/status; set by chat/templates/send)',
  photoMsgid:
    'A customer’s photo (for chat/media/get; when empty, its pre-request script plays one on a sandbox channel with ' +
    'sandbox/receive)',
  webhookEndpointId:
    'A webhook endpoint id of your platform (for webhooks/deliveries; filled in by webhooks/manage creating one when ' +
    'empty)',
  ...WEBHOOK_VARIABLES,
};

const VARIABLE_REF = /\{\{([A-Za-z]\w*)\}\}/g;

type OperationsByRoute = Map<string, OperationObject>;

function operationsByRoute(doc: OpenAPIObject): OperationsByRoute {
  const byRoute: OperationsByRoute = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationObject>))
      byRoute.set(`${method.toUpperCase()} ${path}`, operation);
  }
  return byRoute;
}

/** Every `{{name}}` the request examples use: they become collection variables. */
function exampleVariables(byRoute: OperationsByRoute): string[] {
  const examples = [...byRoute.values()].flatMap((operation) => [
    operation.requestBody && 'content' in operation.requestBody
      ? operation.requestBody.content['application/json']?.example
      : undefined,
    ...(operation.parameters ?? []).map((parameter) => ('example' in parameter ? parameter.example : undefined)),
  ]);
  return [...new Set([...JSON.stringify(examples).matchAll(VARIABLE_REF)].map((match) => match[1]!))];
}

function requestItems(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => [...(item.request ? [item] : []), ...requestItems(item.item ?? [])]);
}

/** A request example with each sample id (EXAMPLE_IDS) in it as its `{{variable}}`. */
function withVariables(example: unknown): unknown {
  let text = JSON.stringify(example);
  for (const [name, id] of Object.entries(EXAMPLE_IDS)) text = text.replaceAll(JSON.stringify(id), `"{{${name}}}"`);
  return JSON.parse(text);
}

/**
 * The definition as the collection should send it: in the request examples (each POST body and GET parameter), the
 * sample ids and names (EXAMPLE_IDS) become `{{variables}}` that the collection fills from the replies of the
 * requests before, or that each user sets to ones of their own tenant. Elsewhere (descriptions, failure examples, the
 * webhook events' examples) they stay: they show what a reply or a delivery looks like.
 */
function withIdVariables(api: OpenAPIObject): OpenAPIObject {
  const doc = structuredClone(api);
  for (const item of Object.values(doc.paths))
    for (const operation of Object.values(item as Record<string, OperationObject>)) {
      const json =
        operation.requestBody && 'content' in operation.requestBody
          ? operation.requestBody.content['application/json']
          : undefined;
      if (json?.example !== undefined) json.example = withVariables(json.example);
      for (const parameter of operation.parameters ?? []) {
        if (!('name' in parameter)) continue;
        const media = parameter.content?.['application/json'];
        if (media?.example !== undefined) media.example = withVariables(media.example);
        if (parameter.example !== undefined) parameter.example = withVariables(parameter.example);
      }
    }
  return doc;
}

/**
 * Every request inherits the collection's X-API-Key auth (the converter copies it onto each one, so a change
 * on the collection would not reach them), a write sends a fresh Idempotency-Key (Postman's `{{$guid}}`: the
 * converter would give every write one made-up value, and a key reused on other parameters is 422), and a GET
 * sends exactly the parameters of the endpoint's example (the converter would also switch on the other optional
 * ones, with made-up values).
 */
function adjustRequest(request: PostmanRequest, byRoute: OperationsByRoute) {
  delete request.auth;
  for (const header of request.header ?? []) if (header.key === 'Idempotency-Key') header.value = '{{$guid}}';
  if (request.method !== 'GET' || !request.url.query) return;
  const operation = byRoute.get(`GET /${(request.url.path ?? []).join('/')}`);
  const examples = new Map(
    (operation?.parameters ?? []).flatMap((parameter) => {
      if (!('name' in parameter)) return [];
      const json = parameter.content?.['application/json']?.example;
      if (json !== undefined) return [[parameter.name, { value: JSON.stringify(json) }] as const];
      return 'example' in parameter ? [[parameter.name, {}] as const] : [];
    }),
  );
  request.url.query = request.url.query.map((param) => ({
    ...param,
    ...examples.get(param.key),
    disabled: !examples.has(param.key),
  }));
}

/**
 * Each of an endpoint's further examples (contract `moreExamples`: chat/message/send's buttons, list, reaction…) as
 * a request of its own beside the endpoint's POST, named after it, sending that body.
 */
function withMoreExamples(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => {
    if (item.item) return [{ ...item, item: withMoreExamples(item.item) }];
    const request = item.request;
    if (request?.method !== 'POST') return [item];
    const path = `/${(request.url.path ?? []).join('/')}`;
    const route = contractRoutes(contract).find((each) => each.method === 'POST' && each.path === path);
    const more = Object.values(route?.metadata.moreExamples ?? {});
    return [
      item,
      ...more.map(({ summary, value }) => ({
        ...structuredClone(item),
        name: `${item.name}: ${summary}`,
        request: {
          ...structuredClone(request),
          body: { ...request.body, mode: 'raw', raw: JSON.stringify(withVariables(value), null, 2) },
        },
      })),
    ];
  });
}

function convert(doc: OpenAPIObject): Promise<PostmanCollection> {
  return new Promise((resolve, reject) => {
    // Postman's own converter; parametersResolution 'Example' makes it use the contract's examples as bodies.
    convertV2(
      { type: 'json', data: doc },
      {
        parametersResolution: 'Example',
        folderStrategy: 'Tags',
        requestNameSource: 'Fallback',
        includeWebhooks: true,
      },
      (error, result) => {
        if (error) return reject(new Error(error.message));
        if (!result?.result || !result.output?.[0])
          return reject(new Error(`OpenAPI → Postman conversion failed: ${result?.reason}`));
        resolve(result.output[0].data as PostmanCollection);
      },
    );
  });
}

/**
 * A Postman v2.1 collection of the whole API, converted from the OpenAPI definition by Postman's own converter,
 * then made ready to run: collection variables (baseUrl, apiKey and every id the examples refer to), the
 * X-API-Key auth on the collection, tests on every request (status 200, `success: true`, reply schema), and a
 * pre-request script creating what a delete deletes (postman-setup.ts).
 */
export async function buildPostmanCollection(definition: OpenAPIObject): Promise<PostmanCollection> {
  const doc = withIdVariables(withoutStreams(definition));
  // The converter rewrites the definition it is given (it keeps only the first alternative of a oneOf): a copy.
  const converted = await convert(structuredClone(doc));
  const collection = { ...converted, item: withMoreExamples(withWebhookExamples(converted.item)) };
  const byRoute = operationsByRoute(doc);
  for (const item of requestItems(collection.item)) {
    const request = item.request!;
    adjustRequest(request, byRoute);
    const operation = byRoute.get(`${request.method} /${(request.url.path ?? []).join('/')}`);
    if (!operation) continue;
    // Both routes of an endpoint share its scripts: the GET route's operationId has a `Get` suffix.
    const operationId = operation.operationId ?? '';
    const endpointId = request.method === 'GET' ? operationId.replace(/Get$/, '') : operationId;
    const setup = setupScript(endpointId);
    item.event = [...(setup ? [setup] : []), replyTests(operation, doc, endpointId)];
  }
  const variable = (key: string, value = ''): PostmanVariable => ({
    key,
    value,
    type: 'string',
    ...(VARIABLE_HELP[key] && { description: VARIABLE_HELP[key] }),
  });
  collection.variable = [
    variable('baseUrl', serverRootOf(doc)),
    variable('apiKey'),
    ...exampleVariables(byRoute).map((key) => variable(key)),
    ...Object.keys(WEBHOOK_VARIABLES).map((key) => variable(key)),
  ];
  collection.auth = {
    type: 'apikey',
    apikey: [
      { key: 'key', value: 'X-API-Key', type: 'string' },
      { key: 'value', value: '{{apiKey}}', type: 'string' },
      { key: 'in', value: 'header', type: 'string' },
    ],
  };
  return collection;
}

export interface PostmanEnvironment {
  name: string;
  values: { key: string; value: string; type: 'default' | 'secret'; enabled: boolean }[];
  _postman_variable_scope: 'environment';
}

/**
 * An environment with every variable of the collection (apiKey as a secret), to fill in and select in Postman or
 * newman.
 */
export function buildPostmanEnvironment(collection: PostmanCollection): PostmanEnvironment {
  return {
    name: `${collection.info.name} environment`,
    values: (collection.variable ?? []).map(({ key, value }) => ({
      key,
      value,
      type: key === 'apiKey' || key === 'webhookSecret' ? 'secret' : 'default',
      enabled: true,
    })),
    _postman_variable_scope: 'environment',
  };
}
