import type { Request, Response } from 'express';
import { PORTAL_PATH } from './portal.router.js';
import { DOWNLOADS } from './views/tools.js';

const LINKS = {
  developerPortal: PORTAL_PATH,
  apiReference: `${PORTAL_PATH}/reference`,
  openApiJson: `${PORTAL_PATH}${DOWNLOADS.json.path}`,
  openApiYaml: `${PORTAL_PATH}${DOWNLOADS.yaml.path}`,
  postmanCollection: `${PORTAL_PATH}${DOWNLOADS.postman.path}`,
  health: '/healthz',
  readiness: '/readyz',
} as const;

const API_BASES = ['/api/workspace/v1', '/api/platform/v1'];

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Switchboard API</title></head>
<body>
<h1>Switchboard API</h1>
<p>This is an HTTP/JSON API under <code>${API_BASES.join('</code> and <code>')}</code>; calls need an
  <code>X-API-Key</code>.</p>
<ul>
<li><a href="${LINKS.developerPortal}">Developer Portal</a>: sign in, create API keys, try requests</li>
<li><a href="${LINKS.apiReference}">API reference</a> and the definitions:
<a href="${LINKS.openApiJson}">OpenAPI JSON</a>, <a href="${LINKS.openApiYaml}">OpenAPI YAML</a>,
<a href="${LINKS.postmanCollection}">Postman collection</a> (after signing in)</li>
</ul>
</body></html>
`;

/** `/` for people who open the server's address: where the portal and the definitions are, as JSON or HTML. */
export function root(req: Request, res: Response) {
  if (req.accepts(['json', 'html']) === 'html') {
    res.type('html').send(PAGE);
    return;
  }
  res.json({ success: true, data: { name: 'Switchboard API', apiBases: API_BASES, links: LINKS } });
}
