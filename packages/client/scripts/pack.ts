/**
 * Packs the published tarball (`pnpm sdk:pack`) from a staging copy: dist/, README.md and a package.json without what
 * only this repository uses (devDependencies on unpublished workspace packages, scripts whose files are not shipped).
 * Prints the tarball's path last, as `pnpm pack` does.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The manifest integrators install: every field but those that need this repository. */
export function publishedManifest(manifest: Record<string, unknown>): Record<string, unknown> {
  const { devDependencies: _devDependencies, scripts: _scripts, ...published } = manifest;
  return published;
}

function pack(destination: string): string {
  const staging = mkdtempSync(path.join(tmpdir(), 'switchboard-client-pack-'));
  try {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
    cpSync(path.join(PACKAGE_DIR, 'dist'), path.join(staging, 'dist'), { recursive: true });
    cpSync(path.join(PACKAGE_DIR, 'README.md'), path.join(staging, 'README.md'));
    mkdirSync(destination, { recursive: true });
    const file = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], {
      cwd: staging,
      encoding: 'utf8',
    });
    return path.join(destination, file.trim().split('\n').pop()!);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(pack(path.resolve(process.argv[2] ?? 'dist/sdk')));
