import { html, type SafeHtml } from '../html.js';

/** Where the key goes in a configuration shown before any key is at hand. */
const KEY_PLACEHOLDER = '<your API key>';

/** The two ways an MCP client reaches this server: its endpoint over HTTP, or the `switchboard-mcp` bin over stdio. */
function mcpClientConfigs(serverUrl: string, apiKey = KEY_PLACEHOLDER) {
  const http = { type: 'http', url: `${serverUrl}/mcp`, headers: { 'X-API-Key': apiKey } };
  const stdio = {
    command: 'npx',
    args: ['-y', '@switchboard/mcp'],
    env: { SWITCHBOARD_URL: serverUrl, SWITCHBOARD_API_KEY: apiKey },
  };
  const config = (server: object) => JSON.stringify({ mcpServers: { switchboard: server } }, null, 2);
  return { endpoint: http.url, http: config(http), stdio: config(stdio) };
}

/** A read-only field and its Copy button, named for what it copies (several sit on one page). */
function copyable(id: string, label: SafeHtml, what: string, value: string, rows?: number): SafeHtml {
  const field = rows
    ? html`<textarea id="${id}" readonly rows="${rows}" spellcheck="false">${value}</textarea>`
    : html`<input id="${id}" type="text" readonly value="${value}" spellcheck="false" autocomplete="off">`;
  return html`<label for="${id}">${label}</label>
    <div class="key-box">
      ${field}
      <button class="button secondary" type="button" data-copy-target="${id}" data-copy-what="${what}">Copy<span
        class="visually-hidden"> the ${what}</span></button>
    </div>`;
}

/** The keys page's MCP card: the endpoint and copyable client configurations, with the key when it is at hand. */
export function mcpSection(serverUrl: string, apiKey?: string): SafeHtml {
  const configs = mcpClientConfigs(serverUrl, apiKey);
  const lines = (text: string) => text.split('\n').length;
  return html`<section class="card" aria-labelledby="mcp-heading">
    <h2 id="mcp-heading">Connect an AI agent (MCP)</h2>
    <p>Agents use the API through the Model Context Protocol: one tool per endpoint, called with the key you give them,
      under its access rules and rate limits. <code>?tools=read</code> on the endpoint offers only the read tools;
      <code>?tools=contacts,chat</code> only those groups.</p>
    ${copyable(
      'mcp-endpoint',
      html`MCP endpoint <span class="hint">Streamable HTTP; send the key in the <code>X-API-Key</code> header</span>`,
      'MCP endpoint',
      configs.endpoint,
    )}
    ${copyable(
      'mcp-http-config',
      html`Client configuration over HTTP`,
      'MCP client configuration over HTTP',
      configs.http,
      lines(configs.http),
    )}
    ${copyable(
      'mcp-stdio-config',
      html`Desktop client configuration <span class="hint">stdio, through the <code>@switchboard/mcp</code>
        package</span>`,
      'MCP client configuration over stdio',
      configs.stdio,
      lines(configs.stdio),
    )}
  </section>`;
}
