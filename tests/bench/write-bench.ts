/**
 * What the search keys cost to keep, on a scratch database of its own (created and dropped here): the time to
 * import `contacts` contacts through the product's write path as an operator would (batched inserts of
 * IMPORT_BATCH contacts, each its own transaction, every index and trigger in place), the storage of the contacts
 * and of the search structures after `VACUUM`, and the latency of creating one contact on that warm database
 * (single-row inserts, autocommit without waiting for the WAL flush, one connection, timed from the client), with
 * and without the search keys.
 */
import pg from 'pg';
import { scratchDatabase } from './bench-database.js';
import { backendCpu, bulkLoadContacts, seedTenant } from './bulk-contacts.js';

const IMPORT_BATCH = 1_000;
const CREATES = 1_000;

export interface WriteFigures {
  contacts: number;
  importSeconds: number;
  /** CPU seconds of the importing PostgreSQL backend (undefined when the server is not on this machine). */
  importCpuSeconds?: number;
  /** Relation sizes after VACUUM, MB: the contacts table, its indexes, and the search structures (tables + indexes). */
  storage: { contactsTable: number; contactsIndexes: number; searchKeys: number; detail: Record<string, number> };
  /** One contact created, ms: median and p99 of CREATES single-row inserts. */
  create: CreateFigures;
  /** The same with no search key trigger nor search index. */
  bare: CreateFigures;
}

interface CreateFigures {
  p50: number;
  p99: number;
  backendCpuMs?: number;
}

const MB = 1024 * 1024;

/** Whether a relation (a key table, or an index on contacts) belongs to search. */
const isSearch = (name: string) => !name.startsWith('contacts') || /search|trgm|word|digit/.test(name);

/**
 * Sizes of the relations besides the contacts table that hold search keys: the key tables (with their indexes)
 * and the search indexes on contacts (their names say `search` or `trgm`).
 */
async function storage(client: pg.Client) {
  const { rows } = await client.query<{ name: string; bytes: string }>(
    `select c.relname as name, pg_total_relation_size(c.oid) as bytes from pg_class c
       join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
      where c.relkind = 'r' and c.relname like 'contact\\_%' and c.relname not in ('contact_labels', 'contact_counts')
        and c.relname not like 'channel%'
     union all
     select i.indexrelid::regclass::text, pg_relation_size(i.indexrelid) from pg_index i
      where i.indrelid = 'contacts'::regclass`,
  );
  const {
    rows: [contacts],
  } = await client.query<{ bytes: string }>(`select pg_relation_size('contacts') as bytes`);
  const detail = Object.fromEntries(rows.map((r) => [r.name, Math.round(Number(r.bytes) / MB)]));
  const sum = (names: string[]) => Math.round(names.reduce((n, name) => n + detail[name]!, 0));
  const names = Object.keys(detail);
  return {
    contactsTable: Math.round(Number(contacts!.bytes) / MB),
    contactsIndexes: sum(names.filter((n) => n.startsWith('contacts') && !isSearch(n))),
    searchKeys: sum(names.filter(isSearch)),
    detail,
  };
}

async function createLatency(client: pg.Client, channelId: string) {
  // Without waiting for the WAL flush at each commit: that wait is the disk's (a bare one-row insert takes as long),
  // the same with or without search keys, and it would hide what the keys cost.
  await client.query('set synchronous_commit = off');
  const samples: number[] = [];
  const cpu = await backendCpu(client);
  for (let i = 0; i < CREATES; i++) {
    const started = performance.now();
    await client.query(`insert into contacts (channel_id, name, phone) values ($1, $2, $3)`, [
      channelId,
      `Created Contact${i} Benchmark`,
      String(19_000_000_000 + i),
    ]);
    samples.push(performance.now() - started);
  }
  const cpuSeconds = cpu();
  await client.query(`delete from contacts where channel_id = $1 and phone like '19%'`, [channelId]);
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.floor(q * (samples.length - 1))]! * 100) / 100;
  // The backend's CPU per insert, net of the timing query's own (one cheap statement each).
  const backendCpuMs = cpuSeconds === undefined ? undefined : Math.round((cpuSeconds * 1e5) / CREATES) / 100;
  return { p50: at(0.5), p99: at(0.99), backendCpuMs };
}

/** Runs the write figures on a scratch database `switchboard_writes_<contacts>` of the server at `adminUrl`. */
export async function measureWrites(
  adminUrl: string,
  contacts: number,
  log: (line: string) => void,
): Promise<WriteFigures> {
  const scratch = await scratchDatabase(adminUrl, `switchboard_writes_${contacts}`);
  const databaseUrl = scratch.url;
  try {
    const { channelId } = await seedTenant(databaseUrl, 1, 0);
    log(`importing ${contacts.toLocaleString('en-US')} contacts in batches of ${IMPORT_BATCH} (indexes in place)`);
    const started = performance.now();
    const { backendCpuSeconds } = await bulkLoadContacts(databaseUrl, channelId, contacts, log, {
      mode: 'import',
      chunk: IMPORT_BATCH,
    });
    const importSeconds = Math.round((performance.now() - started) / 100) / 10;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const sizes = await storage(client);
      const create = await createLatency(client, channelId);
      // The same without any search structure (scratch database: its key triggers and search indexes go), so
      // that what the keys add is apart from what the machine's load adds.
      await client.query(`alter table contacts disable trigger contacts_search_keys_insert`);
      for (const index of Object.keys(sizes.detail).filter((n) => n.startsWith('contacts') && isSearch(n)))
        await client.query(`drop index "${index}"`);
      const bare = await createLatency(client, channelId);
      const importCpuSeconds = backendCpuSeconds === undefined ? undefined : Math.round(backendCpuSeconds * 10) / 10;
      return { contacts, importSeconds, importCpuSeconds, storage: sizes, create, bare };
    } finally {
      await client.end();
    }
  } finally {
    await scratch.drop();
  }
}

const createCell = (c: CreateFigures) => `${c.p50}/${c.p99} ms, ${c.backendCpuMs ?? '?'} ms`;

/** The figures as a Markdown table. */
export function writeReport(figures: WriteFigures): string {
  const { storage: s } = figures;
  return [
    '',
    `## Writes and storage, ${figures.contacts.toLocaleString('en-US')} contacts imported with indexes in place`,
    '',
    '| figure | measured |',
    '|---|---|',
    `| bulk import, batches of ${IMPORT_BATCH} (triggers and indexes on, then VACUUM ANALYZE): wall / PostgreSQL ` +
      `backend CPU | ${figures.importSeconds} s / ${figures.importCpuSeconds ?? '?'} s |`,
    `| creating one contact, warm: p50/p99 round trip, backend CPU per insert | ${createCell(figures.create)} |`,
    `| the same without search keys (triggers off, search indexes dropped) | ${createCell(figures.bare)} |`,
    `| search structures (key tables + indexes, search indexes on contacts), after VACUUM | ${s.searchKeys} MB |`,
    `| contacts table / its other indexes | ${s.contactsTable} MB / ${s.contactsIndexes} MB |`,
    `| detail | ${Object.entries(s.detail)
      .map(([n, mb]) => `${n} ${mb} MB`)
      .join(', ')} |`,
    '',
  ].join('\n');
}
