import type { PostmanEvent, PostmanItem } from './postman.js';
import { WEBHOOKS_TAG } from './webhooks.js';

/** The folder Postman's converter puts the `webhooks` section in (option `includeWebhooks`). */
const CONVERTER_FOLDER = 'Webhooks';

export const WEBHOOK_VARIABLES = {
  webhookUrl:
    'Your webhook receiver, e.g. https://hooks.example.com/switchboard: the requests of the webhooks folder send it ' +
    'each event’s example, signed (skipped when empty)',
  webhookSecret: 'The whsec_… secret of your webhook endpoint (webhooks/manage), to sign those examples',
};

/**
 * Signs the example the way Switchboard signs a delivery (Standard Webhooks: HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` with the secret's base64 bytes, in `webhook-signature` as `v1,…`), with
 * the CryptoJS that Postman's sandbox provides. Without a webhookUrl the request is skipped.
 */
const SIGN = [
  "if (!pm.variables.get('webhookUrl')) {",
  '  pm.execution.skipRequest();',
  '} else {',
  "  const key = CryptoJS.enc.Base64.parse((pm.variables.get('webhookSecret') || '').replace(/^whsec_/, ''));",
  "  const id = 'msg_' + pm.variables.replaceIn('{{$guid}}').replace(/-/g, '');",
  '  const timestamp = String(Math.floor(Date.now() / 1000));',
  '  const body = pm.variables.replaceIn(pm.request.body.raw);',
  "  const signature = CryptoJS.HmacSHA256(id + '.' + timestamp + '.' + body, key).toString(CryptoJS.enc.Base64);",
  "  pm.request.headers.upsert({ key: 'webhook-id', value: id });",
  "  pm.request.headers.upsert({ key: 'webhook-timestamp', value: timestamp });",
  "  pm.request.headers.upsert({ key: 'webhook-signature', value: 'v1,' + signature });",
  '}',
];
const ACKNOWLEDGED = ["pm.test('the receiver acknowledges the event (2xx)', () => pm.response.to.be.success);"];

const script = (listen: PostmanEvent['listen'], exec: string[]): PostmanEvent => ({
  listen,
  script: { type: 'text/javascript', exec },
});

/**
 * The converter's webhooks folder made useful: one request per event carrying its example, POSTed to
 * `{{webhookUrl}}` and signed with `{{webhookSecret}}`, so a receiver can be tried before any real event; under the
 * `webhooks` tag's name, replacing the tag's own (empty) folder.
 */
export function withWebhookExamples(items: PostmanItem[]): PostmanItem[] {
  const events = items.find((item) => item.name === CONVERTER_FOLDER);
  const rest = items.filter((item) => item !== events && item.name !== WEBHOOKS_TAG.name);
  if (!events) return rest;
  for (const item of events.item ?? []) {
    const request = item.request!;
    request.url = { raw: '{{webhookUrl}}', host: ['{{webhookUrl}}'] };
    request.header = (request.header ?? []).map((header) =>
      header.key.startsWith('webhook-') ? { ...header, value: '' } : header,
    );
    item.event = [script('prerequest', SIGN), script('test', ACKNOWLEDGED)];
  }
  return [...rest, { ...events, name: WEBHOOKS_TAG.name, description: WEBHOOKS_TAG.description }];
}
