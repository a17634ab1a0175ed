import type { AssetUrls } from '../assets.js';
import { html, jsonScript } from '../html.js';
import { PORTAL_PATH } from '../session.js';
import { page, type Viewer } from './layout.js';

/** The files, by path inside the portal (the environment's name is the one `pnpm export:api` writes). */
export const DOWNLOADS = {
  json: { path: '/downloads/openapi.json', file: 'switchboard-openapi.json' },
  yaml: { path: '/downloads/openapi.yaml', file: 'switchboard-openapi.yaml' },
  postman: { path: '/downloads/postman.json', file: 'switchboard.postman_collection.json' },
  postmanEnvironment: { path: '/downloads/postman-environment.json', file: 'switchboard.postman_environment.json' },
} as const;
const href = (download: { path: string }) => `${PORTAL_PATH}${download.path}`;
/** The definition the reference loads: example ids are the signed-in user's own. */
export const REFERENCE_DEFINITION_PATH = '/reference/openapi.json';

/**
 * Scalar's options: everything it would fetch from outside (fonts, telemetry, request proxy, AI agent, MCP) is off,
 * so the reference works with no outside network. Requests go straight from the browser to this server.
 */
function scalarOptions() {
  return {
    url: href({ path: REFERENCE_DEFINITION_PATH }),
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    hideClientButton: true,
    hideDarkModeToggle: true,
    documentDownloadType: 'none',
    persistAuth: false,
    customCss: ':root { --scalar-custom-header-height: var(--header-h); }',
  };
}

export function referencePage(
  assets: AssetUrls,
  viewer: Viewer,
  serverUrl: string,
  apiKeyScheme: string | undefined,
): string {
  return page({
    title: 'Try requests',
    assets,
    viewer,
    current: 'reference',
    wide: true,
    scripts: html`${jsonScript('reference-config', { scalar: scalarOptions(), apiKeyScheme })}
      <script src="${assets.scalar}"></script>`,
    body: html`<div class="reference-bar"><div class="inner">
        <h1 class="visually-hidden">Try requests</h1>
        <p>Open an endpoint, press <strong>Test Request</strong>, then <strong>Send</strong>. Requests go to
          <code>${serverUrl}</code> with your key in <code>X-API-Key</code>.</p>
        <p id="try-key-status" hidden>Key <code id="try-key-prefix"></code> is filled in for this tab.
          <button class="button link" type="button" data-forget-key>Forget it</button></p>
        <form id="try-key-form" class="key-form" autocomplete="off">
          <label for="try-key">API key</label>
          <input id="try-key" name="apiKey" type="password" spellcheck="false" autocomplete="off"
            placeholder="Paste a key; kept in this tab only">
          <button class="button secondary small" type="submit">Use key</button>
        </form>
      </div></div>
      <noscript><p class="card">The interactive reference needs JavaScript.
        <a href="${href(DOWNLOADS.json)}">Download the OpenAPI definition</a> instead.</p></noscript>
      <div id="reference-app"></div>`,
  });
}

export function downloadsPage(assets: AssetUrls, viewer: Viewer, serverUrl: string): string {
  const item = (title: string, text: string, href: string, label: string) =>
    html`<li class="card"><h2>${title}</h2><p>${text}</p><a class="button" href="${href}" download>${label}</a></li>`;
  return page({
    title: 'Downloads',
    assets,
    viewer,
    current: 'downloads',
    body: html`<h1>Downloads</h1>
      <p class="lead">The machine-readable definition of the API, generated from the same contract the server runs.
        The server URL in these files is <code>${serverUrl}</code>.</p>
      <ul class="downloads">
        ${item(
          'OpenAPI (JSON)',
          'OpenAPI 3 definition for code generators, gateways and API tools.',
          href(DOWNLOADS.json),
          'Download JSON',
        )}
        ${item(
          'OpenAPI (YAML)',
          'The same definition as YAML, for reading and review.',
          href(DOWNLOADS.yaml),
          'Download YAML',
        )}
        ${item(
          'Postman collection',
          'Every endpoint with example bodies and tests; import it together with the environment.',
          href(DOWNLOADS.postman),
          'Download collection',
        )}
        ${item(
          'Postman environment',
          'The collection’s variables with your own ids filled in. Paste an API key into apiKey, select it, and run.',
          href(DOWNLOADS.postmanEnvironment),
          'Download environment',
        )}
      </ul>`,
  });
}
