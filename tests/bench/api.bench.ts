/**
 * `pnpm bench`: the product against a raw node:http + pg baseline running the product's own SQL, on one channel
 * of BENCH_CONTACTS contacts (default 1,000,000). docs/benchmarks.md says what it measures.
 * Not part of the test suite (vitest only collects *.test.ts). Load goes to 127.0.0.1 only, bounded in time.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/processes.js';
import { automationLatency } from './automation-latency.js';
import { broadcastBench, broadcastReport } from './broadcast-bench.js';
import { webhookBench, webhookReport } from './webhook-bench.js';
import { benchDatabase } from './bench-database.js';
import { cancelReport, measureCancels } from './cancel-bench.js';
import type { LoadResult, LoadSpec } from './load-worker.js';
import { searchTerms } from './names.js';
import { sampleContacts } from './bulk-contacts.js';
import { conversationPhones, lifecycleAssignees } from './bulk-messages.js';
import { inboxFilters } from './inbox-queries.js';
import pg from 'pg';
import { backendsCpuMs, cpuMs, rssMb, startProduct, startRaw, type ServerUnderTest } from './servers.js';
import { report, type Row } from './report.js';
import { streamBench, streamReport } from './stream-bench.js';
import { measureReplay, replayReport } from './replay-bench.js';
import { measureWrites, writeReport } from './write-bench.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const USERS = Number(process.env.BENCH_USERS ?? 2_000);
/** Contacts with a conversation of ten messages: 1,000,000 messages by default. */
const CONVERSATIONS = Math.min(CONTACTS, Number(process.env.BENCH_CONVERSATIONS ?? 100_000));
const CONNECTIONS = 50;
const ONLY = process.env.BENCH_ONLY?.split(',');
/** Another build of the server to measure, e.g. a copy of an older dist/ (both servers run it). */
const DIST = path.resolve(process.env.BENCH_SERVER_DIST ?? path.join(REPO_ROOT, 'apps/server/dist'));
const ARTIFACTS = path.join(REPO_ROOT, 'tests', 'artifacts');
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Scenario {
  name: string;
  path: string;
  mode: 'closed' | 'open';
  rate?: number;
  bodies: LoadSpec['bodies'];
  /** The raw baseline has no messaging providers: only the product runs it. */
  productOnly?: boolean;
  /** A name BENCH_ONLY picks it by besides its own (e.g. `inbox`). */
  group?: string;
}

/** Phones to address conversations by: spread over the inbox, and the newest ones (their 24-hour window is open). */
interface Conversations {
  spread: string[];
  open: string[];
}

const WORKSPACE = '/api/workspace/v1';

/** The agent inbox's filters (inbox-queries.ts), in turn. */
const inboxBodies = (channelId: string, assignees: string[]): LoadSpec['bodies'] =>
  inboxFilters(assignees).map(({ query }) => ({ body: { channelId, ...query } }));

function scenarios(
  channelId: string,
  msgids: string[],
  samples: { name: string; phone: string }[],
  conversations: Conversations,
  assignees: string[],
): Scenario[] {
  const terms = searchTerms(samples, 4_000);
  const search = terms.map(({ search, termClass }) => ({ body: { channelId, search }, termClass }));
  const pages = Array.from({ length: 20 }, (_, i) => ({ body: { channelId, page: i + 1 } }));
  const page1 = [{ body: { channelId } }];
  const labels = Array.from({ length: 40 }, (_, i) => ({
    body: { channelId, name: `bench-${i}`, color: '#3366cc', sortOrder: i % 10 },
  }));
  const history = conversations.spread.map((phone) => ({ body: { channelId, phone } }));
  const replies = conversations.open.map((to) => ({ body: { channelId, to, text: 'Thanks, on its way.' } }));
  const all: Scenario[] = [
    { name: 'channels/list', path: `${WORKSPACE}/channels/list`, mode: 'closed', bodies: [{ body: {} }] },
    { name: 'contacts/list page 1', path: `${WORKSPACE}/contacts/list`, mode: 'closed', bodies: page1 },
    { name: 'contacts/list pages 1-20', path: `${WORKSPACE}/contacts/list`, mode: 'closed', bodies: pages },
    { name: 'search, varied terms', path: `${WORKSPACE}/contacts/list`, mode: 'closed', bodies: search },
    { name: 'labels/manage', path: `${WORKSPACE}/labels/manage`, mode: 'closed', bodies: labels },
    {
      name: 'chat/message/status',
      path: `${WORKSPACE}/chat/message/status`,
      mode: 'closed',
      bodies: msgids.map((msgid) => ({ body: { msgid } })),
    },
    {
      name: 'chat/messages/list, one conversation',
      path: `${WORKSPACE}/chat/messages/list`,
      mode: 'closed',
      bodies: history,
    },
    {
      name: 'chat/conversations/list page 1',
      path: `${WORKSPACE}/chat/conversations/list`,
      mode: 'closed',
      bodies: page1,
      group: 'inbox',
    },
    {
      name: 'chat/conversations/list by status and assignee',
      path: `${WORKSPACE}/chat/conversations/list`,
      mode: 'closed',
      bodies: inboxBodies(channelId, assignees),
      group: 'inbox',
    },
    {
      name: 'chat/message/send (sandbox)',
      path: `${WORKSPACE}/chat/message/send`,
      mode: 'closed',
      bodies: replies,
      productOnly: true,
    },
    { name: 'page 1 at 300 req/s', path: `${WORKSPACE}/contacts/list`, mode: 'open', rate: 300, bodies: page1 },
    {
      name: 'conversation at 200 req/s',
      path: `${WORKSPACE}/chat/messages/list`,
      mode: 'open',
      rate: 200,
      bodies: history,
    },
    {
      name: 'inbox at 200 req/s',
      path: `${WORKSPACE}/chat/conversations/list`,
      mode: 'open',
      rate: 200,
      bodies: page1,
      group: 'inbox',
    },
    { name: 'search at 100 req/s', path: `${WORKSPACE}/contacts/list`, mode: 'open', rate: 100, bodies: search },
  ];
  return all.filter((s) => !ONLY || ONLY.some((only) => s.name.startsWith(only) || s.group === only));
}

function runLoad(spec: LoadSpec): Promise<LoadResult> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const specFile = path.join(ARTIFACTS, `bench-load-${process.pid}.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const worker = path.join(import.meta.dirname, 'load-worker.ts');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', worker, specFile],
      { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`load worker failed: ${stderr || error.message}`))
          : resolve(JSON.parse(stdout) as LoadResult),
    );
  });
}

/** The growth of the server's PostgreSQL backends' CPU since `before` (backendsCpuMs), in ms. */
async function databaseCpuSince(db: pg.Client, server: ServerUnderTest, before: Map<number, number>) {
  const after = await backendsCpuMs(db, server.appName);
  return [...after].reduce((sum, [pid, used]) => sum + used - (before.get(pid) ?? 0), 0);
}

/**
 * One scenario against one server, with the server's peak RSS sampled while it runs and its CPU time per request,
 * and its database's (the CPU of its PostgreSQL backends, through `db`).
 */
async function measure(server: ServerUnderTest, scenario: Scenario, keys: string[], db: pg.Client, seconds = SECONDS) {
  const load = loadavg()[0]!;
  const cpuBefore = cpuMs(server.pid);
  const databaseBefore = await backendsCpuMs(db, server.appName);
  let peakRss = rssMb(server.pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid))), 200);
  await server.probe?.();
  try {
    const result = await runLoad({
      url: server.baseUrl,
      path: scenario.path,
      mode: scenario.mode,
      seconds,
      connections: CONNECTIONS,
      rate: scenario.rate ?? 0,
      keys,
      bodies: scenario.bodies,
    });
    const requests = Math.max(1, result.latency.count);
    const cpuPerRequest = (cpuMs(server.pid) - cpuBefore) / requests;
    const databaseCpuPerRequest = (await databaseCpuSince(db, server, databaseBefore)) / requests;
    return {
      ...result,
      peakRss,
      loadBefore: load,
      cpuPerRequest,
      databaseCpuPerRequest,
      probe: await server.probe?.(),
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * CPU ms a server, and its database, spend per second with no request to answer (its job worker polling, timers):
 * over a round it is part of the CPU per request, the more so the fewer requests a loaded machine lets through.
 */
async function idleCpuPerSecond(server: ServerUnderTest, db: pg.Client, seconds = 5) {
  const before = cpuMs(server.pid);
  const databaseBefore = await backendsCpuMs(db, server.appName);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const database = await databaseCpuSince(db, server, databaseBefore);
  return { server: (cpuMs(server.pid) - before) / seconds, database: database / seconds };
}

/**
 * The write figures (`writes` in BENCH_ONLY picks them; on by default), on a scratch database of
 * BENCH_WRITES_CONTACTS contacts (default BENCH_CONTACTS) of DATABASE_URL's server.
 */
async function writes() {
  if (ONLY && !ONLY.includes('writes')) return;
  if (!process.env.DATABASE_URL) return log('no DATABASE_URL: the write figures need a PostgreSQL server; skipped');
  const contacts = Number(process.env.BENCH_WRITES_CONTACTS ?? CONTACTS);
  const figures = await measureWrites(process.env.DATABASE_URL, contacts, log);
  process.stdout.write(writeReport(figures));
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, `bench-writes-${contacts}.json`), JSON.stringify(figures, null, 2));
}

/**
 * The cancel figures (`cancel` in BENCH_ONLY picks them; off by default: each size loads its own audience), on
 * scratch databases of DATABASE_URL's server, one per size in BENCH_CANCEL_RECIPIENTS (default 10000,100000).
 */
async function cancels() {
  if (!ONLY?.includes('cancel')) return;
  if (!process.env.DATABASE_URL) return log('no DATABASE_URL: the cancel figures need a PostgreSQL server; skipped');
  const sizes = (process.env.BENCH_CANCEL_RECIPIENTS ?? '10000,100000').split(',').map(Number);
  mkdirSync(ARTIFACTS, { recursive: true });
  const figures = await measureCancels(process.env.DATABASE_URL, sizes, { dist: DIST, artifacts: ARTIFACTS }, log);
  process.stdout.write(cancelReport(figures));
  writeFileSync(path.join(ARTIFACTS, 'bench-cancel.json'), JSON.stringify(figures, null, 2));
}

/**
 * The replay figures (`replay` in BENCH_ONLY picks them; on by default), on a scratch database of
 * BENCH_REPLAY_EVENTS events (default 1,000,000) of DATABASE_URL's server.
 */
async function replay() {
  if (ONLY && !ONLY.includes('replay')) return;
  if (!process.env.DATABASE_URL) return log('no DATABASE_URL: the replay figures need a PostgreSQL server; skipped');
  const figures = await measureReplay(process.env.DATABASE_URL, Number(process.env.BENCH_REPLAY_EVENTS ?? 1e6), log);
  process.stdout.write(replayReport(figures));
}

/** The webhook and fair-share figures (`webhooks` in BENCH_ONLY), on a scratch database of DATABASE_URL's server. */
async function webhooks() {
  if (!ONLY?.includes('webhooks')) return;
  if (!process.env.DATABASE_URL) return log('no DATABASE_URL: the webhook figures need a PostgreSQL server; skipped');
  mkdirSync(ARTIFACTS, { recursive: true });
  const figures = await webhookBench(process.env.DATABASE_URL, DIST, ARTIFACTS, log);
  process.stdout.write(webhookReport(figures));
  writeFileSync(path.join(ARTIFACTS, 'bench-webhooks.json'), JSON.stringify(figures, null, 2));
}

async function main() {
  const started = new Date();
  await writes();
  await cancels();
  await replay();
  await webhooks();
  if (ONLY?.every((only) => ['writes', 'cancel', 'replay', 'webhooks'].includes(only))) return;
  const database = await benchDatabase({
    contacts: CONTACTS,
    users: USERS,
    messages: 100_000,
    conversations: CONVERSATIONS,
    keep: process.env.BENCH_KEEP === '1',
    name: process.env.BENCH_DATABASE,
    log,
  });
  if (process.env.BENCH_SEED_ONLY === '1') return database.dispose();
  const { apiKeys, channelId, msgids } = database.tenant;
  const servers: ServerUnderTest[] = [];
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    mkdirSync(ARTIFACTS, { recursive: true });
    servers.push(
      await startProduct(database.url, apiKeys[0]!, ARTIFACTS, DIST),
      await startRaw(database.url, apiKeys[0]!, ARTIFACTS, DIST),
    );
    if (!ONLY || ONLY.includes('automation')) {
      log('automation: inbound message → reply handed to the provider, 50 messages one at a time');
      const latency = await automationLatency(database.url, servers[0]!.baseUrl, apiKeys[0]!, channelId);
      process.stdout.write(
        `automation reply latency (${latency.samples} messages): p50 ${latency.p50} ms, p95 ${latency.p95} ms, ` +
          `max ${latency.max} ms\n\n`,
      );
    }
    if (!ONLY || ONLY.includes('streams')) {
      const streams = await streamBench({
        databaseUrl: database.url,
        baseUrl: servers[0]!.baseUrl,
        pid: servers[0]!.pid,
        apiKeys,
        channelId,
        streams: Number(process.env.BENCH_STREAMS ?? 1000),
        eventsPerSecond: Number(process.env.BENCH_STREAM_RATE ?? 200),
        seconds: SECONDS,
        log,
      });
      process.stdout.write(streamReport(streams));
    }
    if (!ONLY || ONLY.includes('broadcasts')) {
      const figures = await broadcastBench({
        url: database.url,
        tenant: database.tenant,
        dist: DIST,
        artifacts: ARTIFACTS,
        openPhones: await conversationPhones(database.url, 100, true),
        runLoad,
        log,
      });
      process.stdout.write(broadcastReport(figures));
      writeFileSync(
        path.join(ARTIFACTS, `bench-broadcasts-${figures.recipients}.json`),
        JSON.stringify(figures, null, 2),
      );
      if (ONLY?.every((only) => only === 'broadcasts')) return;
    }
    const list = scenarios(
      channelId,
      msgids,
      await sampleContacts(database.url, 2_000),
      {
        spread: await conversationPhones(database.url, 2_000),
        open: await conversationPhones(database.url, 100, true),
      },
      await lifecycleAssignees(database.url, channelId),
    );
    log('warming up both servers (not measured)');
    for (const server of servers)
      for (const scenario of list.filter((s) => s.mode === 'closed' && (!s.productOnly || server.name === 'product')))
        await measure(server, scenario, apiKeys, db, 2);
    const idleCpu = Object.fromEntries(
      await Promise.all(servers.map(async (server) => [server.name, await idleCpuPerSecond(server, db)] as const)),
    );

    const rows: Row[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const scenario of list) {
        // Alternate which server goes first, so neither always runs on the other's leftovers.
        const order = round % 2 === 1 ? servers : [...servers].reverse();
        for (const server of order.filter((s) => !scenario.productOnly || s.name === 'product')) {
          log(`round ${round}/${ROUNDS}: ${scenario.name} → ${server.name}`);
          rows.push({
            round,
            mode: scenario.mode,
            scenario: scenario.name,
            server: server.name,
            ...(await measure(server, scenario, apiKeys, db)),
          });
        }
      }
    }
    const rssAtEnd = Object.fromEntries(servers.map((server) => [server.name, rssMb(server.pid)]));
    const text = report(rows, {
      contacts: CONTACTS,
      seconds: SECONDS,
      rounds: ROUNDS,
      users: USERS,
      connections: CONNECTIONS,
      started,
      rssAtEnd,
      idleCpu,
    });
    process.stdout.write(text);
    const file = path.join(ARTIFACTS, `bench-${started.toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ contacts: CONTACTS, seconds: SECONDS, rows }, null, 2));
    log(`raw results: ${file}`);
  } finally {
    await db.end();
    for (const server of servers) await server.stop();
    await database.dispose();
  }
}

await main();
