import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Router, type Request, type Response } from 'express';
import { PORTAL_JS } from './assets/client.js';
import { FAVICON_SVG } from './assets/favicon.js';
import { PORTAL_CSS } from './assets/styles.js';

interface Asset {
  body: Buffer;
  /** Precompressed once: the reference bundle is large and compresses well (docs/benchmarks.md, "Memory"). */
  gzipped: Buffer;
  type: string;
  etag: string;
}

export interface AssetUrls {
  css: string;
  js: string;
  scalar: string;
  icon: string;
}

/** Scalar's self-contained browser build (its CSS is inside), served from node_modules: no CDN. */
function scalarBundlePath(): string {
  const entry = fileURLToPath(import.meta.resolve('@scalar/api-reference'));
  const bundle = path.join(path.dirname(entry), 'browser', 'standalone.js');
  if (!existsSync(bundle))
    throw new Error(`The API reference bundle is missing at ${bundle}; reinstall @scalar/api-reference.`);
  return bundle;
}

async function asset(body: Buffer, type: string): Promise<Asset> {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, gzipped: await promisify(gzip)(body), type, etag };
}

function send(req: Request, res: Response, file: Asset) {
  res.setHeader('Content-Type', file.type);
  res.setHeader('ETag', file.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  // URLs carry the content hash, so a browser may keep a copy for a year.
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  if (req.get('if-none-match') === file.etag) return res.status(304).end();
  const zipped = req.acceptsEncodings('gzip', 'identity') === 'gzip';
  if (zipped) res.setHeader('Content-Encoding', 'gzip');
  res.send(zipped ? file.gzipped : file.body);
}

/**
 * The portal's static files, loaded lazily on first request and kept for the life of the process.
 * Returns the router and the versioned URLs pages link to.
 */
export function portalAssets(basePath: string): { router: Router; urls: AssetUrls } {
  const bundlePath = scalarBundlePath();
  const files = new Map<string, () => Promise<Asset>>();
  const once = (load: () => Promise<Asset>) => {
    let loaded: Promise<Asset> | undefined;
    return () => (loaded ??= load());
  };
  const version = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
  files.set(
    'portal.css',
    once(() => asset(Buffer.from(PORTAL_CSS), 'text/css; charset=utf-8')),
  );
  files.set(
    'portal.js',
    once(() => asset(Buffer.from(PORTAL_JS), 'text/javascript; charset=utf-8')),
  );
  files.set(
    'favicon.svg',
    once(() => asset(Buffer.from(FAVICON_SVG), 'image/svg+xml')),
  );
  files.set(
    'scalar.js',
    once(async () => asset(await readFile(bundlePath), 'text/javascript; charset=utf-8')),
  );

  const router = Router();
  router.get('/assets/:file', async (req, res, next) => {
    const load = files.get(req.params.file!);
    if (!load) return next();
    try {
      send(req, res, await load());
    } catch (error) {
      next(error);
    }
  });
  // The bundle changes only when the package is reinstalled: its size and mtime version it without hashing it at start.
  const { size, mtimeMs } = statSync(bundlePath);
  const scalarVersion = version(`${size}:${mtimeMs}`);
  return {
    router,
    urls: {
      css: `${basePath}/assets/portal.css?v=${version(PORTAL_CSS)}`,
      js: `${basePath}/assets/portal.js?v=${version(PORTAL_JS)}`,
      scalar: `${basePath}/assets/scalar.js?v=${scalarVersion}`,
      icon: `${basePath}/assets/favicon.svg?v=${version(FAVICON_SVG)}`,
    },
  };
}
