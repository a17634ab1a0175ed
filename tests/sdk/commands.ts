import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pnpmCommand, REPO_ROOT, type ProcessResult } from '../helpers/processes.js';

/** For tests that run tsc over the SDK's types, npm or newman: seconds each, more on a busy 2-core machine. */
export const SLOW_TIMEOUT_MS = 120_000;

/**
 * Runs a program to completion and collects its output; never throws on a non-zero exit (callers assert it). With
 * `timeoutMs`, a program still running then is killed (its code is null), so a hung one outlives no test.
 */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<ProcessResult> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: 'SIGKILL' }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Like run, but a non-zero exit fails with the program's output in the message. */
export async function runOk(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<string> {
  const result = await run(command, args, options);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/**
 * The argv of a pnpm command, run by the same pnpm as this test run (CI starts it through npx, so it may not be on
 * PATH).
 */
export function pnpm(...args: string[]): [string, ...string[]] {
  const [command, prefix] = pnpmCommand();
  return [command, ...prefix, ...args];
}

/**
 * Runs a command that builds dist/ files under the team's build lock when this machine has flock, so a concurrent build
 * never sees half-written files.
 */
export function runBuilding(command: string[], cwd = REPO_ROOT): Promise<string> {
  const [program, ...args] = existsSync('/usr/bin/flock') ? ['flock', '/tmp/sb-build.lock', ...command] : command;
  return runOk(program!, args, { cwd, env: { PATH: `${REPO_ROOT}/node_modules/.bin:${process.env.PATH}` } });
}

/** Builds a workspace package and what it depends on with turbo: a cache hit when nothing changed. */
export async function buildPackage(name: string): Promise<void> {
  await runBuilding(['turbo', 'run', 'build', `--filter=${name}...`, '--output-logs=errors-only']);
}
