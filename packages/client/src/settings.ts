import type { HttpTransport } from './transport.js';
import { SDK_VERSION } from './version.js';

/** Your integration, named in every request's User-Agent so the API's operators can tell its traffic apart. */
export interface AppInfo {
  name: string;
  version?: string | undefined;
  url?: string | undefined;
}

/**
 * The server root, checked when the client is made rather than at its first call: an absolute http(s) URL without
 * query or fragment, and not an API path (`…/api/workspace/v1`: the SDK adds the paths itself).
 */
export function validBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `createClient: baseUrl must be an absolute URL like https://switchboard.example.com, got ` +
        `${JSON.stringify(baseUrl)}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TypeError(`createClient: baseUrl must be an http:// or https:// URL, got ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password)
    throw new TypeError('createClient: baseUrl must be the server root, without query, fragment or credentials');
  if (/\/api(\/|$)/.test(url.pathname))
    throw new TypeError(
      `createClient: baseUrl is the server root, without /api/…: use ` +
        `${url.origin}${url.pathname.replace(/\/api(\/.*)?$/, '')}`,
    );
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** The User-Agent header an axios instance was configured with (its defaults, any case), if any. */
function configuredAgent(http: HttpTransport): string | undefined {
  const defaults = http.defaults.headers as unknown as Record<string, unknown> & { common?: Record<string, unknown> };
  for (const scope of [defaults, defaults.common ?? {}])
    for (const [name, value] of Object.entries(scope))
      if (name.toLowerCase() === 'user-agent' && typeof value === 'string' && value) return value;
  return undefined;
}

/**
 * `switchboard-node/<version>`, after the caller's own User-Agent when their axios instance sets one (it is kept,
 * not overwritten), and followed by the app's name, version and URL (Stripe's `appInfo` convention).
 */
export function userAgent(http: HttpTransport, app: AppInfo | undefined): string {
  if (app && (typeof app.name !== 'string' || !/^[^\s/]+$/.test(app.name)))
    throw new TypeError('createClient: appInfo.name must be a name without spaces or slashes, e.g. "acme-crm"');
  const appPart = app && [`${app.name}${app.version ? `/${app.version}` : ''}`, app.url && `(+${app.url})`];
  return [configuredAgent(http), `switchboard-node/${SDK_VERSION}`, ...(appPart ?? [])].filter(Boolean).join(' ');
}
