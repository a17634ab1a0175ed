import { WEBHOOK_SECRET_OVERLAP_HOURS, type WebhookDelivery, type WebhookEndpoint } from '@switchboard/contract';
import type { AssetUrls } from '../assets.js';
import { html, type SafeHtml } from '../html.js';
import { hiddenCsrf, page, when, type Viewer } from './layout.js';
import { enabledBadge, WEBHOOKS } from './webhooks.js';

const STATUS_BADGE = { delivered: 'active', pending: 'pending', failed: 'failed' } as const;

function attemptsSummary(delivery: WebhookDelivery): SafeHtml {
  const last = delivery.attempts.at(-1);
  if (!last) return html`<span class="muted">None yet</span>`;
  const outcome = last.statusCode === null ? (last.error ?? 'no reply') : `HTTP ${last.statusCode}`;
  const summary = `${delivery.attempts.length} · last: ${outcome}, ${last.durationMs} ms`;
  return html`<span title="${last.error ?? ''}">${summary}</span>`;
}

function statusBadge(status: WebhookDelivery['status']): SafeHtml {
  return html`<span class="badge ${STATUS_BADGE[status]}">${status}</span>`;
}

function deliveryRow(viewer: Viewer, endpoint: WebhookEndpoint, delivery: WebhookDelivery): SafeHtml {
  const canRedeliver = endpoint.enabled && delivery.status !== 'pending';
  return html`<tr data-delivery="${delivery.id}">
    <td data-label="Event"><code>${delivery.eventType}</code></td>
    <td data-label="webhook-id"><code class="wrap">${delivery.webhookId}</code></td>
    <td data-label="Status"><span>${statusBadge(delivery.status)}</span></td>
    <td data-label="Attempts">${attemptsSummary(delivery)}</td>
    <td data-label="Next retry">${when(delivery.nextAttemptAt, '—')}</td>
    <td data-label="Created">${when(delivery.createdAt, '')}</td>
    <td data-label="Actions">${
      canRedeliver &&
      html`<form method="post"
        action="${WEBHOOKS}/${endpoint.id}/deliveries/${delivery.id}/redeliver">${hiddenCsrf(viewer.csrfToken)}
        <button class="button secondary small" type="submit"
          aria-label="Redeliver ${delivery.webhookId}">Redeliver</button></form>`
    }</td>
  </tr>`;
}

export interface WebhookDetailView {
  viewer: Viewer;
  endpoint: WebhookEndpoint;
  deliveries: WebhookDelivery[];
  totalDeliveries: number;
  notice?: string;
  error?: string;
}

export function webhookDetailPage(assets: AssetUrls, view: WebhookDetailView): string {
  const { endpoint, viewer } = view;
  return page({
    title: 'Webhook endpoint',
    assets,
    viewer,
    current: 'webhooks',
    body: html`<p><a href="${WEBHOOKS}">← Webhooks</a></p>
      <h1>Webhook endpoint</h1>
      ${view.notice && html`<p class="alert info" role="status">${view.notice}</p>`}
      ${view.error && html`<p class="alert error" role="alert">${view.error}</p>`}
      <section class="card" aria-labelledby="endpoint-heading">
        <h2 id="endpoint-heading"><code class="wrap">${endpoint.url}</code></h2>
        <dl class="details">
          <dt>Status</dt><dd>${enabledBadge(endpoint.enabled)}</dd>
          <dt>Events</dt><dd>${endpoint.events.map((event) => html`<code>${event}</code> `)}</dd>
          <dt>Description</dt><dd>${endpoint.description ?? html`<span class="muted">None</span>`}</dd>
          <dt>Created</dt><dd>${when(endpoint.createdAt, '')}</dd>
          <dt>Secret</dt><dd>${
            endpoint.previousSecretExpiresAt
              ? html`Rotated; the previous secret also signs until ${when(endpoint.previousSecretExpiresAt, '')}`
              : html`<span class="muted">Shown only when the endpoint was added or its secret rotated</span>`
          }</dd>
        </dl>
        <div class="actions">
          <form method="post" action="${WEBHOOKS}/${endpoint.id}/enabled">${hiddenCsrf(viewer.csrfToken)}
            <input type="hidden" name="enabled" value="${endpoint.enabled ? 'false' : 'true'}">
            <button class="button secondary" type="submit">${endpoint.enabled ? 'Disable' : 'Enable'}</button></form>
          <a class="button secondary" href="${WEBHOOKS}/${endpoint.id}/rotate">Rotate secret</a>
          <a class="button danger" href="${WEBHOOKS}/${endpoint.id}/delete">Delete endpoint</a>
        </div>
      </section>
      <section class="card" aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Recent deliveries</h2>
        ${
          view.deliveries.length === 0
            ? html`<p class="muted">No deliveries yet.</p>`
            : html`<p class="muted">The newest ${view.deliveries.length} of ${view.totalDeliveries};
              webhooks/deliveries in the API has them all.</p>
            <table class="stack">
              <thead><tr><th scope="col">Event</th><th scope="col">webhook-id</th><th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Next retry</th><th scope="col">Created</th><th scope="col"><span
                  class="visually-hidden">Actions</span></th></tr></thead>
              <tbody>${view.deliveries.map((delivery) => deliveryRow(viewer, endpoint, delivery))}</tbody>
            </table>`
        }
      </section>`,
  });
}

const CONFIRM = {
  rotate: {
    title: 'Rotate secret',
    question: 'Rotate the signing secret of',
    consequence:
      `A new secret is shown once. The current one keeps signing beside it for ${WEBHOOK_SECRET_OVERLAP_HOURS} ` +
      `hours, so your receiver can switch without missing a request.`,
    button: html`<button class="button" type="submit">Rotate secret</button>`,
  },
  delete: {
    title: 'Delete endpoint',
    question: 'Delete',
    consequence: 'No more events are sent to it, and its delivery log is deleted with it. This cannot be undone.',
    button: html`<button class="button danger" type="submit">Delete endpoint</button>`,
  },
} as const;

export function confirmPage(
  assets: AssetUrls,
  viewer: Viewer,
  endpoint: WebhookEndpoint,
  action: keyof typeof CONFIRM,
): string {
  const text = CONFIRM[action];
  return page({
    title: text.title,
    assets,
    viewer,
    current: 'webhooks',
    body: html`<div class="card narrow warning">
      <h1>${text.question} <code class="wrap">${endpoint.url}</code>?</h1>
      <p>${text.consequence}</p>
      <form class="actions" method="post" action="${WEBHOOKS}/${endpoint.id}/${action}">
        ${hiddenCsrf(viewer.csrfToken)}
        ${text.button}
        <a href="${WEBHOOKS}/${endpoint.id}">Cancel</a>
      </form>
    </div>`,
  });
}
