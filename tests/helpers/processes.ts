import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { TEST_SECRETS_KEY } from './secrets-key.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** pnpm as the test run was started (npx, corepack or global), so nested calls use the same pnpm. */
export function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  return execPath && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ['pnpm', []];
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess, input?: string): Promise<ProcessResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  if (input !== undefined) child.stdin?.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** `pnpm --silent cli <args>` from the repo root, exactly as operators run it. */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<ProcessResult> {
  const [command, prefix] = pnpmCommand();
  const child = spawn(command, [...prefix, '--silent', 'cli', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', SECRETS_KEY: TEST_SECRETS_KEY, ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  return collect(child, input);
}

export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the output matches, rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

/** The built server (`node apps/server/dist/main.js`) as a separate process, as a container runs it. */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', SECRETS_KEY: TEST_SECRETS_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const check = () => {
          const match = output.match(pattern);
          if (match) return resolve(match);
          if (child.exitCode !== null) return reject(new Error(`server exited (${child.exitCode}):\n${output}`));
          if (Date.now() - started > timeoutMs)
            return reject(new Error(`timed out waiting for ${pattern}:\n${output}`));
          setTimeout(check, 50);
        };
        check();
      });
    },
  };
}
