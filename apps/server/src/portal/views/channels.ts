import type { TemplateStatus } from '@switchboard/contract';
import type { ChannelConnection } from '../../modules/whatsapp/index.js';
import type { AssetUrls } from '../assets.js';
import { html, type SafeHtml } from '../html.js';
import { PORTAL_PATH } from '../session.js';
import { hiddenCsrf, page, type Viewer } from './layout.js';

export const CHANNELS = `${PORTAL_PATH}/channels`;
const WEBHOOK_HINT = 'Meta app → WhatsApp → Configuration → Webhook.';
const NO_CHANNELS = html`<p class="card muted">This platform has no channels yet.</p>`;
const INVALID = html` aria-invalid="true"`;
const AUTOFOCUS = html` autofocus`;
const REQUIRED = html` required`;

/** A read-only value with a Copy button: what the operator pastes into Meta's dashboard. */
function copyable(id: string, label: string, value: string, hint: string): SafeHtml {
  return html`<div class="field">
    <label for="${id}">${label} <span class="hint" id="${id}-hint">${hint}</span></label>
    <div class="key-box">
      <input id="${id}" type="text" readonly value="${value}" spellcheck="false" autocomplete="off"
        aria-describedby="${id}-hint">
      <button class="button secondary" type="button" data-copy-target="${id}" data-copy-what="${label}">Copy</button>
    </div>
  </div>`;
}

function whatsAppDetails(channel: ChannelConnection, whatsApp: NonNullable<ChannelConnection['whatsApp']>): SafeHtml {
  const connectedAt = whatsApp.connectedAt.slice(0, 16).replace('T', ' ');
  return html`<dl class="details">
      <dt>WhatsApp number</dt><dd>${whatsApp.displayPhoneNumber} (${whatsApp.verifiedName})</dd>
      <dt>Phone number ID</dt><dd><code>${whatsApp.phoneNumberId}</code></dd>
      <dt>Business account ID</dt><dd><code>${whatsApp.wabaId}</code></dd>
      <dt>App ID</dt><dd>${
        whatsApp.appId === null
          ? html`<span class="muted">not given: templates with a media header need it</span>`
          : html`<code>${whatsApp.appId}</code>`
      }</dd>
      <dt>Templates</dt><dd>${whatsApp.templates.synced} synced, ${whatsApp.templates.approved} approved</dd>
      <dt>Connected</dt><dd><time datetime="${whatsApp.connectedAt}">${connectedAt} UTC</time></dd>
    </dl>
    ${copyable(`webhook-${channel.channelId}`, 'Callback URL', whatsApp.webhookUrl, WEBHOOK_HINT)}
    ${
      whatsApp.verifyToken === undefined
        ? html`<p class="alert error">The stored verify token cannot be opened with this server’s SECRETS_KEY: connect
          the channel again.</p>`
        : copyable(
            `verify-${channel.channelId}`,
            'Verify token',
            whatsApp.verifyToken,
            'Paste beside the callback URL. Shown on this page only.',
          )
    }`;
}

/** Meta's ratings as badges: green good, yellow a warning, red bad, unknown not rated yet. */
const QUALITY_BADGE = { green: 'active', yellow: 'pending', red: 'failed', unknown: 'revoked' } as const;
/** Review states as badges: approved can be sent; paused, disabled and rejected cannot. */
const STATUS_BADGE: Record<TemplateStatus, 'active' | 'pending' | 'failed' | 'revoked'> = {
  approved: 'active',
  pending: 'pending',
  in_appeal: 'pending',
  pending_deletion: 'revoked',
  rejected: 'failed',
  paused: 'failed',
  disabled: 'failed',
};

const qualityBadge = (quality: ChannelConnection['quality']) =>
  html`<span class="badge ${QUALITY_BADGE[quality]}">${quality}</span>`;

/** The number's health as Meta rates it, and the channel's templates with their review state and quality. */
function healthAndTemplates(channel: ChannelConnection): SafeHtml {
  const tier = channel.messagingLimit ?? 'not reported yet';
  return html`<p>Quality: ${qualityBadge(channel.quality)} · Messaging tier: <code>${tier}</code></p>
    ${
      channel.templateList.length === 0
        ? html`<p class="muted">No templates yet.</p>`
        : html`<table class="stack" aria-label="Templates of ${channel.name}">
          <thead><tr><th scope="col">Template</th><th scope="col">Language</th><th scope="col">Status</th>
            <th scope="col">Quality</th></tr></thead>
          <tbody>${channel.templateList.map(
            (template) => html`<tr><td>${template.name}</td><td>${template.language}</td>
              <td><span class="badge ${STATUS_BADGE[template.status]}">${template.status}</span></td>
              <td>${qualityBadge(template.quality)}</td></tr>`,
          )}</tbody>
        </table>`
    }`;
}

function channelCard(channel: ChannelConnection): SafeHtml {
  const connected = channel.whatsApp;
  return html`<section class="card" aria-labelledby="channel-${channel.channelId}" data-channel="${channel.channelId}">
    <h2 id="channel-${channel.channelId}">${channel.name} <span class="muted">+${channel.phone}</span></h2>
    <p>Provider: ${
      connected
        ? html`<span class="badge active">WhatsApp Cloud API</span>`
        : html`<span class="badge revoked">Sandbox</span> <span class="muted">messages are simulated; nothing is
          sent.</span>`
    }</p>
    ${healthAndTemplates(channel)}
    ${connected && whatsAppDetails(channel, connected)}
    <div class="actions">
      <a class="button ${connected ? 'secondary' : ''}" href="${CHANNELS}/${channel.channelId}/connect">${
        connected ? 'Rotate credentials' : 'Connect to WhatsApp'
      }</a>
    </div>
  </section>`;
}

export function channelsPage(
  assets: AssetUrls,
  viewer: Viewer,
  channels: ChannelConnection[],
  notice?: string,
): string {
  return page({
    title: 'Channels',
    assets,
    viewer,
    current: 'channels',
    body: html`<h1>Channels</h1>
      <p class="lead">The channels of ${viewer.platformName} and the provider that carries their messages. Connect one
        to the WhatsApp Cloud API with the credentials from your Meta app, then give Meta the callback URL and verify
        token shown here.</p>
      ${notice && html`<p class="alert info" role="status">${notice}</p>`}
      ${channels.length === 0 ? NO_CHANNELS : channels.map(channelCard)}`,
  });
}

export interface ConnectForm {
  phoneNumberId?: string;
  wabaId?: string;
  appId?: string;
  /** Field → problem, for the fields that were refused. */
  errors?: Record<string, string>;
  /** Meta's (or our) refusal of the whole set, shown above the form. */
  failure?: string;
}

/** The typed fields that are not secrets, so are shown again after a refusal. */
type TypedField = 'phoneNumberId' | 'wabaId' | 'appId';

const FIELDS: { name: keyof typeof LABELS; secret: boolean; optional?: true; hint: string }[] = [
  {
    name: 'phoneNumberId',
    secret: false,
    hint: 'WhatsApp Manager → Phone numbers, or the app’s API Setup page: the number’s ID, digits only.',
  },
  { name: 'wabaId', secret: false, hint: 'The WhatsApp Business Account ID, on the same page.' },
  {
    name: 'accessToken',
    secret: true,
    hint: 'A system user token with whatsapp_business_messaging and whatsapp_business_management.',
  },
  {
    name: 'appSecret',
    secret: true,
    hint: 'App settings → Basic → App secret. Checks the signature of Meta’s webhooks.',
  },
  {
    name: 'verifyToken',
    secret: true,
    hint: 'Any string you choose (no spaces); enter the same in Meta’s webhook settings.',
  },
  {
    name: 'appId',
    secret: false,
    optional: true,
    hint: 'Optional. App settings → Basic → App ID: templates with an image, video or document header need it.',
  },
];
const LABELS = {
  phoneNumberId: 'Phone number ID',
  wabaId: 'Business account ID',
  accessToken: 'Access token',
  appSecret: 'App secret',
  verifyToken: 'Verify token',
  appId: 'App ID',
};

function formField(field: (typeof FIELDS)[number], form: ConnectForm, first: boolean): SafeHtml {
  const error = form.errors?.[field.name];
  const id = `connect-${field.name}`;
  // Secrets are never sent back into the page, not even the ones just typed.
  const value = field.secret ? '' : (form[field.name as TypedField] ?? '');
  return html`<div class="field">
    <label for="${id}">${LABELS[field.name]} <span class="hint" id="${id}-hint">${field.hint}</span></label>
    <input id="${id}" name="${field.name}" type="${field.secret ? 'password' : 'text'}"${!field.optional && REQUIRED}
      value="${value}"
      autocomplete="${field.secret ? 'new-password' : 'off'}" spellcheck="false"
      aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"${error && INVALID}${error && first && AUTOFOCUS}>
    ${error && html`<p class="field-error" id="${id}-error">${error}</p>`}
  </div>`;
}

export function connectPage(
  assets: AssetUrls,
  viewer: Viewer,
  channel: ChannelConnection,
  form: ConnectForm = {},
): string {
  const firstError = FIELDS.find((field) => form.errors?.[field.name])?.name;
  const rotating = channel.whatsApp !== undefined;
  return page({
    title: `Connect ${channel.name}`,
    assets,
    viewer,
    current: 'channels',
    body: html`<h1>${rotating ? 'Rotate credentials of' : 'Connect'} ${channel.name}</h1>
      <p class="lead">Switchboard checks these with Meta before storing anything, keeps the secrets encrypted, and
        pulls the business account’s message templates. ${
          rotating
            ? 'The new credentials replace the stored ones.'
            : 'From then on the channel’s messages go out through WhatsApp.'
        }</p>
      ${form.failure && html`<p class="alert error" role="alert">${form.failure}</p>`}
      <section class="card">
        <form method="post" action="${CHANNELS}/${channel.channelId}/connect" novalidate>
          ${hiddenCsrf(viewer.csrfToken)}
          ${FIELDS.map((field) => formField(field, form, field.name === firstError))}
          <div class="actions">
            <button class="button" type="submit">${rotating ? 'Check and rotate' : 'Check and connect'}</button>
            <a href="${CHANNELS}">Cancel</a>
          </div>
        </form>
      </section>`,
  });
}
