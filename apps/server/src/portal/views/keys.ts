import type { ApiKeySummary, CreatedApiKey } from '../../modules/api-keys/index.js';
import type { AssetUrls } from '../assets.js';
import { html, type SafeHtml } from '../html.js';
import { PORTAL_PATH } from '../session.js';
import { hiddenCsrf, page, when, type Viewer } from './layout.js';
import { mcpSection } from './mcp.js';

const KEYS = `${PORTAL_PATH}/keys`;
const INVALID = html` aria-invalid="true" autofocus`;

function keyRow(key: ApiKeySummary): SafeHtml {
  return html`<tr data-prefix="${key.prefix}">
    <td data-label="Name">${key.name}</td>
    <td data-label="Prefix"><code>${key.prefix}…</code></td>
    <td data-label="Created">${when(key.createdAt, '')}</td>
    <td data-label="Last used" class="last-used">${when(key.lastUsedAt, 'Never')}</td>
    <td data-label="Status"><span>${
      key.revokedAt
        ? html`<span class="badge revoked">Revoked</span> ${when(key.revokedAt, '')}`
        : html`<span class="badge active">Active</span>`
    }</span></td>
    <td data-label="Actions">${
      !key.revokedAt &&
      html`<a class="button secondary small" href="${KEYS}/${key.prefix}/revoke"
        aria-label="Revoke ${key.name} (${key.prefix})">Revoke</a>`
    }</td>
  </tr>`;
}

export interface KeysView {
  viewer: Viewer;
  /** The server's root URL, for the MCP endpoint and client configurations. */
  serverUrl: string;
  keys: ApiKeySummary[];
  name?: string;
  nameError?: string;
  notice?: string;
}

function createForm(view: KeysView): SafeHtml {
  return html`<section class="card" aria-labelledby="create-heading">
    <h2 id="create-heading">Generate a key</h2>
    <form class="inline-form" method="post" action="${KEYS}" novalidate>
      ${hiddenCsrf(view.viewer.csrfToken)}
      <div class="field">
        <label for="key-name">Key name <span class="hint" id="key-name-hint">Where it will be used, e.g. “CRM sync”. Up
          to 100 characters.</span></label>
        <input id="key-name" name="name" type="text" maxlength="100" required value="${view.name ?? ''}"
          aria-describedby="key-name-hint${view.nameError ? ' key-name-error' : ''}"${view.nameError ? INVALID : ''}>
        ${view.nameError && html`<p class="field-error" id="key-name-error">${view.nameError}</p>`}
      </div>
      <button class="button" type="submit">Generate API key</button>
    </form>
  </section>`;
}

export function keysPage(assets: AssetUrls, view: KeysView): string {
  return page({
    title: 'API keys',
    assets,
    viewer: view.viewer,
    current: 'keys',
    body: html`<h1>API keys</h1>
      <p class="lead">Keys authenticate calls to the Workspace and Platform API as you (${view.viewer.platformName}).
        Send one in the <code>X-API-Key</code> header. A key’s value is shown once, when it is generated.</p>
      ${view.notice && html`<p class="alert info" role="status">${view.notice}</p>`}
      ${createForm(view)}
      <section class="card" aria-labelledby="list-heading">
        <h2 id="list-heading">Your keys</h2>
        ${
          view.keys.length === 0
            ? html`<p class="muted">No keys yet.</p>`
            : html`<table class="stack">
              <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Created</th>
                <th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span
                  class="visually-hidden">Actions</span></th></tr></thead>
              <tbody>${view.keys.map(keyRow)}</tbody>
            </table>`
        }
      </section>
      ${mcpSection(view.serverUrl)}`,
  });
}

export function keyCreatedPage(assets: AssetUrls, viewer: Viewer, key: CreatedApiKey, serverUrl: string): string {
  return page({
    title: 'Key generated',
    assets,
    viewer,
    current: 'keys',
    body: html`<h1>Key generated</h1>
      <section class="card success" aria-labelledby="new-key-heading">
        <h2 id="new-key-heading">Copy “${key.name}” now</h2>
        <p><strong>This is the only time the key is shown.</strong> Store it somewhere safe, such as your secrets
          manager.
          If you lose it, revoke it and generate a new one.</p>
        <label for="new-key">API key</label>
        <div class="key-box">
          <input id="new-key" type="text" readonly value="${key.apiKey}" spellcheck="false" autocomplete="off">
          <button class="button" type="button" data-copy-target="new-key">Copy</button>
        </div>
        <div class="actions">
          <button class="button secondary" type="button" data-try-key="new-key"
            data-href="${PORTAL_PATH}/reference">Try requests with this key</button>
          <a href="${KEYS}">Back to API keys</a>
        </div>
      </section>
      ${mcpSection(serverUrl, key.apiKey)}`,
  });
}

export function revokeConfirmPage(assets: AssetUrls, viewer: Viewer, key: ApiKeySummary): string {
  return page({
    title: 'Revoke key',
    assets,
    viewer,
    current: 'keys',
    body: html`<div class="card narrow warning">
      <h1>Revoke “${key.name}”?</h1>
      <p>Key <code>${key.prefix}…</code>, created ${when(key.createdAt, '')}, last used
        ${when(key.lastUsedAt, 'never')}.</p>
      <p>Every request with this key will be refused with 401 immediately. This cannot be undone.</p>
      <form class="actions" method="post" action="${KEYS}/${key.prefix}/revoke">
        ${hiddenCsrf(viewer.csrfToken)}
        <button class="button danger" type="submit">Revoke key</button>
        <a href="${KEYS}">Cancel</a>
      </form>
    </div>`,
  });
}
