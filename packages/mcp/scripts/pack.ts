/**
 * Packs the published tarball (`pnpm mcp:pack`) from a staging copy: dist/, README.md and a package.json without what
 * only this repository uses (devDependencies, scripts), its SDK dependency pinned to the SDK's own version (published
 * beside it). Prints the tarball's path last, as `pnpm pack` does.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

function publishedManifest(): Record<string, unknown> {
  const { devDependencies: _dev, scripts: _scripts, ...manifest } = readJson(path.join(PACKAGE_DIR, 'package.json'));
  const sdk = readJson(path.join(PACKAGE_DIR, '../client/package.json'));
  const dependencies = {
    ...(manifest.dependencies as Record<string, string>),
    '@switchboard/client': `${sdk.version}`,
  };
  return { ...manifest, dependencies };
}

function pack(destination: string): string {
  const staging = mkdtempSync(path.join(tmpdir(), 'switchboard-mcp-pack-'));
  try {
    writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(publishedManifest(), null, 2)}\n`);
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

console.log(pack(path.resolve(process.argv[2] ?? 'dist/mcp')));
