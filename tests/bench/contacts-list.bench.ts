/**
 * contacts/list under load: `pnpm bench`. Seeds one channel with BENCH_CONTACTS contacts (default 1,000,000),
 * serves the real app in-process and drives it with autocannon (50 connections, BENCH_DURATION seconds per
 * scenario, default 10). Uses a fresh database on DATABASE_URL's server when set (dropped afterwards), else a
 * throwaway embedded PostgreSQL. Not part of the test suite (vitest only collects *.test.ts).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import {
  createApp,
  createLogger,
  createMessagingProviders,
  loadConfig,
  migrate,
  openDatabase,
  seed,
  startEmbeddedPostgres,
  type AppDeps,
} from '@switchboard/server';
import { freePort } from '../helpers/ports.js';
import { benchContact, bulkLoadContacts } from './bulk-contacts.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const PATH = '/api/workspace/v1/contacts/list';
const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', 2);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** A PostgreSQL database of our own and how to get rid of it. */
async function benchDatabase(): Promise<{ url: string; dispose(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `sb_bench_${randomBytes(4).toString('hex')}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    };
    await admin(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return { url: url.toString(), dispose: () => admin(`drop database "${name}" with (force)`) };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-pg-'));
  const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'bench', logger, persistent: false });
  return {
    url: embedded.url,
    async dispose() {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The benchmark measures the list path, so no request may be turned away by a rate limit. */
const neverLimited = {
  consume: async () => ({ remainingPoints: Number.MAX_SAFE_INTEGER, msBeforeNext: 60_000 }),
} as unknown as AppDeps['rateLimiters']['api_read'];

interface Scenario {
  name: string;
  body: Record<string, unknown>;
}

function scenarios(count: number): Scenario[] {
  const sample = benchContact(Math.floor(count * 0.37));
  const [first, surname] = sample.name.split(' ') as [string, string];
  // Typed the way people write numbers: the API strips the +, spaces and dashes.
  const phone = `+${sample.phone[0]} ${sample.phone.slice(1, 4)}-${sample.phone.slice(4, 7)}-${sample.phone.slice(7)}`;
  const deepPage = Math.max(2, Math.floor(count / 500));
  return [
    { name: 'no search, page 1', body: {} },
    // The end of a first name and a whole surname: about one contact in 40,000 (25 at a million), under a page.
    { name: `selective search "${first.slice(-3)} ${surname}"`, body: { search: `${first.slice(-3)} ${surname}` } },
    // A whole surname: one contact in 1,000, so a full page plus a count.
    { name: `surname search "${surname}"`, body: { search: surname } },
    { name: `phone search "${phone}"`, body: { search: phone } },
    { name: 'broad search "ada" (capped count)', body: { search: 'ada' } },
    { name: `deep page ${deepPage} (offset ${(deepPage - 1) * 50})`, body: { page: deepPage } },
  ];
}

const headersFor = (apiKey: string) => ({ 'content-type': 'application/json', 'x-api-key': apiKey });

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface LoadResult {
  latency: { p50: number; p99: number };
  requests: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/**
 * 50 connections posting `body` for `seconds`. autocannon runs as its own process: a load generator sharing the
 * server's event loop would add its own work to every measured latency.
 */
function load(baseUrl: string, apiKey: string, body: Record<string, unknown>, seconds: number): Promise<LoadResult> {
  const headers = Object.entries(headersFor(apiKey)).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
  const args = [AUTOCANNON, '-j', '-c', String(CONNECTIONS), '-d', String(seconds), '-m', 'POST', ...headers, '-b', JSON.stringify(body), `${baseUrl}${PATH}`];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as LoadResult),
    );
  });
}

/** Peak resident memory of this process (the server) while `work` runs. */
async function peakRss<T>(work: () => Promise<T>): Promise<[T, number]> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    return [await work(), peak];
  } finally {
    clearInterval(timer);
  }
}

async function run(baseUrl: string, apiKey: string, scenario: Scenario) {
  const probe = await fetch(`${baseUrl}${PATH}`, { method: 'POST', headers: headersFor(apiKey), body: JSON.stringify(scenario.body) });
  const reply = (await probe.json()) as { data: unknown[]; pagination: { total: number } };
  if (probe.status !== 200) throw new Error(`${scenario.name}: HTTP ${probe.status} ${JSON.stringify(reply)}`);
  const [result, rss] = await peakRss(() => load(baseUrl, apiKey, scenario.body, DURATION_SECONDS));
  return {
    scenario: scenario.name,
    matches: reply.pagination.total,
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'req/s': Math.round(result.requests.average),
    errors: result.errors + result.timeouts + result.non2xx,
    'server RSS MB': Math.round(rss / 1024 / 1024),
  };
}

async function main() {
  const database = await benchDatabase();
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  const db = await openDatabase(config, logger);
  const messaging = createMessagingProviders(db.orm.em, logger, { sentAfterMs: 1000, deliveredAfterMs: 3000 });
  let server: Server | undefined;
  try {
    await migrate(db.orm);
    const ids = await seed(db.orm.em.fork(), {
      platforms: [{ ref: 'p', name: 'Bench', domain: 'bench.example.com' }],
      users: [{ ref: 'u', platform: 'p', email: 'bench@bench.example.com', name: 'Bench', apiKey: true }],
      channels: [{ ref: 'c', platform: 'p', name: 'Bench', phone: '14150000000', users: ['u'] }],
    });
    const started = Date.now();
    await bulkLoadContacts(database.url, ids.channels!.c!, CONTACTS);
    log(`seeded ${CONTACTS.toLocaleString('en-US')} contacts in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const app = createApp({
      orm: db.orm,
      logger,
      rateLimiters: { api_read: neverLimited, api_write: neverLimited, api_admin_write: neverLimited },
      messaging,
      jobs: { enqueue: () => Promise.reject(new Error('the benchmark queues no jobs')) },
    });
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const apiKey = ids.users!.u!.apiKey!;
    log('warming up');
    await load(baseUrl, apiKey, {}, 3);
    const rows = [];
    for (const scenario of scenarios(CONTACTS)) {
      log(`running: ${scenario.name}`);
      rows.push(await run(baseUrl, apiKey, scenario));
    }
    log(`\ncontacts/list, ${CONTACTS.toLocaleString('en-US')} contacts in one channel, ${CONNECTIONS} connections, ${DURATION_SECONDS} s each:`);
    console.table(rows);
  } finally {
    // autocannon stops with requests still being handled: let them finish before the pool closes.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await messaging.close();
    await db.close();
    await database.dispose();
  }
}

await main();
