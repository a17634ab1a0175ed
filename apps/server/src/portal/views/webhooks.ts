import { WEBHOOK_EVENT_TYPES, WEBHOOK_SECRET_OVERLAP_HOURS, type WebhookEndpoint } from '@switchboard/contract';
import type { AssetUrls } from '../assets.js';
import { html, type SafeHtml } from '../html.js';
import { PORTAL_PATH } from '../session.js';
import { hiddenCsrf, page, when, type Viewer } from './layout.js';

export const WEBHOOKS = `${PORTAL_PATH}/webhooks`;
const INVALID = html` aria-invalid="true"`;

/** What each event is, for the create form. */
const EVENT_HELP: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  'ticket.closed': 'A support ticket moved into closed',
  'message.status.updated': 'A sent WhatsApp message was delivered, read or failed',
  'message.received': 'A contact wrote to one of your WhatsApp channels',
};

export const enabledBadge = (enabled: boolean) =>
  enabled ? html`<span class="badge active">Enabled</span>` : html`<span class="badge revoked">Disabled</span>`;

function endpointRow(endpoint: WebhookEndpoint): SafeHtml {
  return html`<tr data-endpoint="${endpoint.id}">
    <td data-label="URL"><code class="wrap">${endpoint.url}</code>${
      endpoint.description && html`<span class="hint">${endpoint.description}</span>`
    }</td>
    <td data-label="Events"><span>${endpoint.events.join(', ')}</span></td>
    <td data-label="Status"><span>${enabledBadge(endpoint.enabled)}</span></td>
    <td data-label="Created">${when(endpoint.createdAt, '')}</td>
    <td data-label="Actions"><a class="button secondary small" href="${WEBHOOKS}/${endpoint.id}"
      aria-label="Manage ${endpoint.url}">Manage</a></td>
  </tr>`;
}

export interface WebhookForm {
  url?: string;
  description?: string;
  events?: readonly string[];
}

export interface WebhooksView {
  viewer: Viewer;
  endpoints: WebhookEndpoint[];
  form?: WebhookForm;
  /** Problems by field (`url`, `description`, `events`). */
  errors?: Record<string, string>;
  notice?: string;
}

function fieldError(id: string, error: string | undefined): SafeHtml | false {
  return Boolean(error) && html`<p class="field-error" id="${id}">${error}</p>`;
}

function createForm(view: WebhooksView): SafeHtml {
  const { form = {}, errors = {} } = view;
  const chosen = new Set(form.events ?? ['ticket.closed']);
  const invalid = (field: string, hint: string) =>
    html` aria-describedby="${hint}${errors[field] ? ` ${field}-error` : ''}"${errors[field] ? INVALID : ''}`;
  return html`<section class="card" aria-labelledby="create-heading">
    <h2 id="create-heading">Add an endpoint</h2>
    <form method="post" action="${WEBHOOKS}" novalidate>
      ${hiddenCsrf(view.viewer.csrfToken)}
      <div class="field">
        <label for="webhook-url">Endpoint URL <span class="hint" id="webhook-url-hint">An https:// address on the
          public internet that answers 2xx.</span></label>
        <input id="webhook-url" name="url" type="url" maxlength="2000" required value="${form.url ?? ''}"
          ${invalid('url', 'webhook-url-hint')}${errors.url ? html` autofocus` : ''}>
        ${fieldError('url-error', errors.url)}
      </div>
      <div class="field">
        <label for="webhook-description">Description <span class="hint" id="webhook-description-hint">Optional, for
          you: what receives these events. Up to 500 characters.</span></label>
        <input id="webhook-description" name="description" type="text" maxlength="500"
          value="${form.description ?? ''}"${invalid('description', 'webhook-description-hint')}>
        ${fieldError('description-error', errors.description)}
      </div>
      <fieldset class="field checks"${errors.events ? html` aria-describedby="events-error"` : ''}>
        <legend>Events</legend>
        ${WEBHOOK_EVENT_TYPES.map(
          (event) => html`<label class="check"><input type="checkbox" name="events"
            value="${event}"${chosen.has(event) ? html` checked` : ''}>
            <code>${event}</code> <span class="hint">${EVENT_HELP[event]}</span></label>`,
        )}
        ${fieldError('events-error', errors.events)}
      </fieldset>
      <button class="button" type="submit">Add endpoint</button>
    </form>
  </section>`;
}

export function webhooksPage(assets: AssetUrls, view: WebhooksView): string {
  return page({
    title: 'Webhooks',
    assets,
    viewer: view.viewer,
    current: 'webhooks',
    body: html`<h1>Webhooks</h1>
      <p class="lead">Switchboard POSTs the events you choose to your endpoints, signed the
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> way with each endpoint’s own secret, and
        retries until your endpoint answers 2xx. A secret is shown once, when the endpoint is added or its secret is
        rotated.</p>
      ${view.notice && html`<p class="alert info" role="status">${view.notice}</p>`}
      ${createForm(view)}
      <section class="card" aria-labelledby="list-heading">
        <h2 id="list-heading">Your endpoints</h2>
        ${
          view.endpoints.length === 0
            ? html`<p class="muted">No endpoints yet.</p>`
            : html`<table class="stack">
              <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th>
                <th scope="col">Created</th><th scope="col"><span
                  class="visually-hidden">Actions</span></th></tr></thead>
              <tbody>${view.endpoints.map(endpointRow)}</tbody>
            </table>`
        }
      </section>`,
  });
}

/** After a create or a rotation: the secret, this once. */
export function secretPage(assets: AssetUrls, viewer: Viewer, endpoint: WebhookEndpoint, secret: string): string {
  const rotated = endpoint.previousSecretExpiresAt !== null;
  return page({
    title: rotated ? 'Secret rotated' : 'Endpoint added',
    assets,
    viewer,
    current: 'webhooks',
    body: html`<h1>${rotated ? 'Secret rotated' : 'Endpoint added'}</h1>
      <section class="card success" aria-labelledby="secret-heading">
        <h2 id="secret-heading">Copy the signing secret of <code class="wrap">${endpoint.url}</code> now</h2>
        <p><strong>This is the only time the secret is shown.</strong> Your receiver verifies each request’s
          <code>webhook-signature</code> with it (e.g. <code>new Webhook(secret).verify(body, headers)</code>).</p>
        ${
          rotated &&
          html`<p>The previous secret keeps signing beside the new one for ${WEBHOOK_SECRET_OVERLAP_HOURS} hours, until
          ${when(endpoint.previousSecretExpiresAt, '')}: switch your receiver to the new secret before then.</p>`
        }
        <label for="new-secret">Signing secret</label>
        <div class="key-box">
          <input id="new-secret" type="text" readonly value="${secret}" spellcheck="false" autocomplete="off">
          <button class="button" type="button" data-copy-target="new-secret"
            data-copied-message="Signing secret copied to the clipboard.">Copy</button>
        </div>
        <div class="actions"><a href="${WEBHOOKS}/${endpoint.id}">Manage this endpoint</a>
          <a href="${WEBHOOKS}">Back to webhooks</a></div>
      </section>`,
  });
}
