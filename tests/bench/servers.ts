import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { freePort } from '../helpers/ports.js';
import { REPO_ROOT } from '../helpers/processes.js';
import type { ProbeReport } from './runtime-probe.js';

export interface ServerUnderTest {
  name: 'product' | 'raw';
  baseUrl: string;
  pid: number;
  /** The application_name of its PostgreSQL connections (PGAPPNAME): whose backends' CPU is its database's. */
  appName: string;
  /** With BENCH_PROBE=1 (runtime-probe.ts): what the process saw since the last call (event loop, GC). */
  probe?(): Promise<ProbeReport>;
  stop(): Promise<void>;
}

const PROBE = path.join(import.meta.dirname, 'runtime-probe.ts');

/** Node flags and environment that load runtime-probe.ts into a server, writing to `file`, when BENCH_PROBE=1. */
function probed(file: string): {
  flags: string[];
  env: Record<string, string>;
  probe?: (pid: number) => Promise<ProbeReport>;
} {
  if (process.env.BENCH_PROBE !== '1') return { flags: [], env: {} };
  const probe = async (pid: number) => {
    rmSync(file, { force: true });
    process.kill(pid, 'SIGUSR2');
    const deadline = Date.now() + 5_000;
    while (!existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return JSON.parse(readFileSync(file, 'utf8')) as ProbeReport;
  };
  return { flags: ['--import', PROBE], env: { BENCH_PROBE_FILE: file }, probe };
}

/** Resident memory of a process now, in MB (Linux). */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

/**
 * CPU time a process has used so far (user + system), in ms (Linux; clock ticks are 100 per second there). Over a
 * run it divides into CPU per request: what the server itself costs, whatever else is busy on the machine.
 */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU ms used so far by each PostgreSQL backend connected as `appName`, when the database server runs on this
 * machine (its processes' /proc entries; none otherwise). Over a run, the growth summed over the backends alive at
 * its end (a backend opened meanwhile counts from zero) is the database's CPU for that server's requests; a
 * backend closed during the run (the pool's idle timeout) is missed, which under load does not happen.
 */
export async function backendsCpuMs(client: pg.Client, appName: string): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [
    appName,
  ]);
  const used = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      used.set(pid, cpuMs(pid));
    } catch {
      // Gone meanwhile, or not on this machine.
    }
  }
  return used;
}

async function waitUntilServing(child: ChildProcess, baseUrl: string, apiKey: string, logFile: string): Promise<void> {
  const deadline = Date.now() + 15 * 60_000; // a kept database may first get a new index built over a million rows
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}); see ${logFile}`);
    const ok = await fetch(`${baseUrl}/api/workspace/v1/channels/list`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
    })
      .then((res) => res.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`server not serving after 15 minutes; see ${logFile}`);
}

/** The application_name each server's database connections carry. */
const appNameOf = (name: ServerUnderTest['name']) => `switchboard-bench-${name}`;

function serverUnderTest(
  name: ServerUnderTest['name'],
  baseUrl: string,
  child: ChildProcess,
  probe?: (pid: number) => Promise<ProbeReport>,
): ServerUnderTest {
  const pid = child.pid!;
  return { name, baseUrl, pid, appName: appNameOf(name), probe: probe && (() => probe(pid)), stop: stopper(child) };
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/**
 * The Node flags `pnpm start` gives the server (package.json), so the benchmark runs it with the same heap settings.
 */
export function startFlags(script = startScript()): string[] {
  const command = /exec node ((?:--\S+ )*)apps\/server\/dist\/main\.js/.exec(script);
  if (!command) throw new Error('package.json start script: cannot find the node command that starts the server');
  return command[1]!.split(' ').filter(Boolean);
}

/** The root package.json's `start` script. */
export function startScript(): string {
  const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return scripts.start;
}

/**
 * The product as `pnpm start` runs it: `node apps/server/dist/main.js` (or another build, `dist`) with its default
 * configuration (request
 * logging at info, rate limits on; REDIS_URL passed through when set). Its logs go to a file, as to a collector.
 */
export async function startProduct(
  databaseUrl: string,
  apiKey: string,
  logDir: string,
  dist: string,
  /** Configuration beyond the defaults (e.g. a raised SEND_RATE_PER_CHANNEL for the broadcast figures). */
  extraEnv: Record<string, string> = {},
): Promise<ServerUnderTest> {
  const port = await freePort();
  const logFile = path.join(logDir, 'bench-server.log');
  const log = openSync(logFile, 'w');
  const probe = probed(path.join(logDir, 'bench-probe-product.json'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    PGAPPNAME: appNameOf('product'),
    PORT: String(port),
    ...probe.env,
    ...extraEnv,
  };
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  // BENCH_PRODUCT_FLAGS: Node flags to try on the product beyond `pnpm start`'s (e.g. another young generation size).
  const extra = process.env.BENCH_PRODUCT_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...startFlags(), ...extra, ...probe.flags, path.join(dist, 'main.js')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilServing(child, baseUrl, apiKey, logFile);
  const first = await fetch(`${baseUrl}/api/workspace/v1/channels/list`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey },
  });
  if (!first.headers.get('ratelimit-limit'))
    throw new Error('the server under test answers without rate-limit headers');
  return serverUnderTest('product', baseUrl, child, probe.probe);
}

/** The raw node:http + pg baseline (raw-server.ts) on the same build, with the server's pool size. */
export async function startRaw(
  databaseUrl: string,
  apiKey: string,
  logDir: string,
  dist: string,
): Promise<ServerUnderTest> {
  const port = await freePort();
  const logFile = path.join(logDir, 'bench-raw.log');
  const log = openSync(logFile, 'w');
  const probe = probed(path.join(logDir, 'bench-probe-raw.json'));
  const env = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    PGAPPNAME: appNameOf('raw'),
    PORT: String(port),
    POOL_SIZE: '20',
    SERVER_DIST: dist,
    ...probe.env,
  };
  // The product's heap flags (`pnpm start`'s young generation size), so garbage collection is alike on both sides.
  // BENCH_RAW_FLAGS: more Node flags for the raw server (e.g. `--cpu-prof`, for a profile beside the product's).
  const extra = process.env.BENCH_RAW_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    [...startFlags(), ...extra, '--import', 'tsx', ...probe.flags, path.join(import.meta.dirname, 'raw-server.ts')],
    {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', log, log],
    },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilServing(child, baseUrl, apiKey, logFile);
  return serverUnderTest('raw', baseUrl, child, probe.probe);
}
