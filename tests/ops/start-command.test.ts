import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { REPO_ROOT } from '../helpers/processes.js';

const START = ['npx', '-y', 'pnpm@10.34.9', 'start'];

/**
 * The README's start command (or a command line running it), in a process group of its own as a terminal would run it.
 */
function startCommand(env: Record<string, string>, [command, ...args] = START) {
  const child = spawn(command!, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // How the top process itself ended (npx: what a terminal or supervisor sees).
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // 'close' waits for every process still holding the output pipes: the whole tree, not only npx.
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { child, exited, closed, output: () => output };
}

/** True while any process is left in the group the command started (npx, pnpm, the server). */
function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

describe('stopping `npx -y pnpm@10.34.9 start`', { timeout: 300_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-start-'));
  let env: Record<string, string>;
  let ports: number[];

  beforeAll(async () => {
    ports = [await freePort(), await freePort()];
    env = { PORT: String(ports[0]), EMBEDDED_PG_PORT: String(ports[1]), SWITCHBOARD_DATA_DIR: dataDir };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function expectCleanStop(run: ReturnType<typeof startCommand>) {
    const took = await until(
      async () => (await portIsFree(ports[0]!)) && (await portIsFree(ports[1]!)),
      10_000,
      'both ports to be free',
    );
    await run.closed;
    await until(() => !groupAlive(run.child.pid!), 10_000, 'no process left in the group');
    const output = run.output();
    expect(output.match(/"msg":"stopped"/g), output).toHaveLength(1);
    // No error, and no outage warning: the database going away is part of the orderly stop, not an outage.
    expect(output).not.toMatch(/ELIFECYCLE|Unhandled|"level":(50|60)|cannot reach the database/);
    return took;
  }

  async function started(commandLine?: string[]) {
    const run = startCommand(env, commandLine);
    await until(() => /Switchboard ready on/.test(run.output()), 240_000, 'ready');
    return run;
  }

  it('SIGINT to the process group (Ctrl-C) stops the server and the embedded PostgreSQL cleanly, exit 0', async () => {
    const run = await started();
    process.kill(-run.child.pid!, 'SIGINT');
    const took = await expectCleanStop(run);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    process.stdout.write(`SIGINT to the group: ports free after ${took} ms\n`);
  });

  it('SIGTERM to the top process only stops the whole tree, exit 0, leaving no orphan on a port', async () => {
    const run = await started();
    process.kill(run.child.pid!, 'SIGTERM');
    const took = await expectCleanStop(run);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    process.stdout.write(`SIGTERM to the top process: ports free after ${took} ms\n`);
  });

  it('SIGKILL to the top process (nothing can be forwarded): the server sees its launcher gone and stops', async () => {
    const run = await started();
    process.kill(run.child.pid!, 'SIGKILL');
    const took = await expectCleanStop(run);
    expect(run.output()).toMatch(/"reason":"launcher process \d+ exited"/);
    process.stdout.write(`SIGKILL to the top process: ports free after ${took} ms\n`);
  });

  it('a script that starts it in the background then ends does not stop it (a shell is no launcher)', async () => {
    const run = await started(['bash', '-c', `${START.join(' ')} & sleep 600`]);
    // The script ends (here: killed while it waits) after the server started with it as an ancestor.
    process.kill(run.child.pid!, 'SIGTERM');
    await run.exited;
    // Longer than the launcher watch's polling interval (250 ms): a watched shell's exit would have stopped it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const ready = await fetch(`http://127.0.0.1:${ports[0]}/readyz`);
    expect(ready.status).toBe(200);
    expect(run.output()).not.toMatch(/shutting down/);
    process.kill(-run.child.pid!, 'SIGINT');
    await expectCleanStop(run);
  });
});
