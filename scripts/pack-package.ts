/**
 * Packs the publishable workspace package in the current directory (`pnpm sdk:pack`, `pnpm mcp:pack`) from a staging
 * copy: what its `files` name (dist/, a bin), README.md and a package.json without what only this repository uses
 * (devDependencies, scripts whose files are not shipped), its `workspace:` dependencies pinned to those packages'
 * versions (published beside it). Prints the tarball's path last, as `pnpm pack` does.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Manifest = Record<string, unknown> & {
  name: string;
  version: string;
  files: string[];
  dependencies?: Record<string, string>;
};

const PACKAGES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages');
const readManifest = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** The versions of this repository's packages, by name. */
function workspaceVersions(): Map<string, string> {
  const manifests = readdirSync(PACKAGES_DIR).map((dir) => readManifest(path.join(PACKAGES_DIR, dir)));
  return new Map(manifests.map((manifest) => [manifest.name, manifest.version]));
}

/** The manifest integrators install: every field but those that need this repository. */
function publishedManifest(manifest: Manifest): Manifest {
  const { devDependencies: _devDependencies, scripts: _scripts, ...published } = manifest;
  if (!published.dependencies) return published;
  const versions = workspaceVersions();
  const pinned = Object.entries(published.dependencies).map(([name, range]) => [
    name,
    range.startsWith('workspace:') ? versions.get(name)! : range,
  ]);
  return { ...published, dependencies: Object.fromEntries(pinned) };
}

function pack(packageDir: string, destination: string): string {
  const staging = mkdtempSync(path.join(tmpdir(), 'switchboard-pack-'));
  try {
    const manifest = publishedManifest(readManifest(packageDir));
    writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const entry of manifest.files)
      cpSync(path.join(packageDir, entry), path.join(staging, entry), { recursive: true });
    cpSync(path.join(packageDir, 'README.md'), path.join(staging, 'README.md'));
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

console.log(pack(process.cwd(), path.resolve(process.argv[2] ?? 'dist/pack')));
