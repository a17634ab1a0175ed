import type { AssetUrls } from '../assets.js';
import { html, type SafeHtml } from '../html.js';
import { PORTAL_PATH } from '../session.js';

type Section = 'keys' | 'channels' | 'webhooks' | 'events' | 'reference' | 'downloads';

const SECTIONS: { id: Section; label: string; path: string }[] = [
  { id: 'keys', label: 'API keys', path: `${PORTAL_PATH}/keys` },
  { id: 'channels', label: 'Channels', path: `${PORTAL_PATH}/channels` },
  { id: 'webhooks', label: 'Webhooks', path: `${PORTAL_PATH}/webhooks` },
  { id: 'events', label: 'Live events', path: `${PORTAL_PATH}/events` },
  { id: 'reference', label: 'Try requests', path: `${PORTAL_PATH}/reference` },
  { id: 'downloads', label: 'Downloads', path: `${PORTAL_PATH}/downloads` },
];

/** What every signed-in page needs to draw the header. */
export interface Viewer {
  email: string;
  name: string;
  platformName: string;
  /** Whether the viewer may use the portal (`settings:api`); without it the header shows no navigation. */
  allowed: boolean;
  csrfToken: string;
}

export interface PageOptions {
  title: string;
  assets: AssetUrls;
  viewer?: Viewer;
  current?: Section;
  /** Full-width main area (the API reference brings its own layout). */
  wide?: boolean;
  scripts?: SafeHtml;
  body: SafeHtml;
}

/** `2026-11-22 04:37 UTC` in a <time> element carrying the exact instant. */
export function when(iso: string | null, fallback: string): SafeHtml {
  if (!iso) return html`<span class="muted">${fallback}</span>`;
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export const hiddenCsrf = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

function header(viewer: Viewer | undefined, current: Section | undefined): SafeHtml {
  return html`<header class="site-header">
    <div class="header-inner">
      <a class="brand" href="${PORTAL_PATH}/"><span class="brand-mark" aria-hidden="true"></span>
        <span>Switchboard<small>Developer Portal</small></span></a>
      ${
        viewer?.allowed &&
        html`<nav class="site-nav" aria-label="Portal sections"><ul>
        ${SECTIONS.map(
          (s) => html`<li><a href="${s.path}"${s.id === current ? html` aria-current="page"` : ''}>${s.label}</a></li>`,
        )}
      </ul></nav>`
      }
      ${
        viewer &&
        html`<div class="account">
        <span class="who" title="${viewer.platformName}">${viewer.email}</span>
        <form method="post" action="${PORTAL_PATH}/sign-out">${hiddenCsrf(viewer.csrfToken)}
          <button class="button secondary small" type="submit">Sign out</button></form>
      </div>`
      }
    </div>
  </header>`;
}

const FOOTER = html`<footer class="site-footer"><div class="inner">
  Switchboard API v1 · keys are shown once; keep them secret.</div></footer>`;

export function page(options: PageOptions): string {
  const { title, assets, viewer, current, wide, scripts, body } = options;
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light">
  <title>${title} · Switchboard Developer Portal</title>
  <link rel="icon" type="image/svg+xml" href="${assets.icon}">
  <link rel="stylesheet" href="${assets.css}">
</head>
<body>
  <a class="skip-link" href="#main">Skip to content</a>
  ${header(viewer, current)}
  <main id="main" tabindex="-1"${wide ? html` class="wide"` : ''}>${body}</main>
  ${!wide && FOOTER}
  <div id="live-status" class="visually-hidden" role="status" aria-live="polite"></div>
  ${scripts}
  <script src="${assets.js}"></script>
</body>
</html>`.value;
}
