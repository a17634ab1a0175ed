/**
 * The SQL of contacts/list alone, without HTTP: for each term class of `pnpm bench` (and the unsearched page 1),
 * the exact statements the service sends for SQL_BENCH_TERMS terms are recorded, explained (EXPLAIN (ANALYZE,
 * BUFFERS), independent of the machine's load) and run by pgbench (SQL_BENCH_CLIENTS clients, SQL_BENCH_SECONDS
 * seconds per class, each transaction one term's statements, terms drawn at random). Prepared statements run as
 * such (`pgbench -M prepared`, their parameters passed with -D, generic plans and no JIT as executePrepared asks),
 * so planning is paid as the server pays it: once per connection.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/switchboard_bench_1000000 npx tsx tests/bench/sql-bench.ts
 *
 * Needs a database seeded by `pnpm bench` (BENCH_KEEP=1 or BENCH_SEED_ONLY=1) with the current migrations applied,
 * and `pgbench` on the PATH. Prints a Markdown table; the pgbench scripts and each term's EXPLAIN (ANALYZE, BUFFERS)
 * are left in tests/artifacts/sql-bench.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { listContacts } from '../../apps/server/src/modules/contacts/contact.service.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { sampleContacts } from './bulk-contacts.js';
import { searchTerms, type TermClass } from './names.js';
import { explain, literalsOf, seededDatabase, withStatements, type Statement } from './recorded-sql.js';

const URL = process.env.BENCH_DATABASE_URL;
const TERMS = Number(process.env.SQL_BENCH_TERMS ?? 25);
const CLIENTS = Number(process.env.SQL_BENCH_CLIENTS ?? 2);
const SECONDS = Number(process.env.SQL_BENCH_SECONDS ?? 5);
const OUT = path.join(REPO_ROOT, 'tests', 'artifacts', 'sql-bench');

interface ExplainedPlan {
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
  'Planning Time': number;
  'Execution Time': number;
}
interface Cost {
  buffers: number;
  planningMs: number;
  executionMs: number;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * One statement as a pgbench command: a prepared statement's `$n` become variables of this script, defined with
 * -D. pgbench reads `:name` inside literals as a variable too, so the colons of the ISO timestamp format are
 * spelled chr(58) (a constant the planner folds: the same work).
 */
function pgbenchCommand(statement: Statement, script: number, defines: string[]): string {
  const text = statement.text.replace(
    /'YYYY-MM-DD"T"HH24:MI:SS\.MS"Z"'/g,
    `('YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"')`,
  );
  if (!statement.prepared) return text;
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    defines.push('-D', `p${script}_${n}=${String(statement.values[Number(n) - 1])}`);
    return `:p${script}_${n}`;
  });
}

/** pgbench over one script per term (equal weights), returning transactions per second and mean latency. */
function pgbench(scripts: string[], defines: string[]) {
  const output = execFileSync(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(CLIENTS),
      '-j',
      String(CLIENTS),
      '-T',
      String(SECONDS),
      ...defines,
      ...scripts.flatMap((s) => ['-f', s]),
      URL!,
    ],
    // As executePrepared runs them: generic plans, no JIT.
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PGOPTIONS: '-c plan_cache_mode=force_generic_plan -c jit=off' },
    },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1]);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1]);
  return { tps, latency };
}

async function main() {
  const { url, tenant, database, client } = await seededDatabase(URL);
  rmSync(OUT, { recursive: true, force: true });
  try {
    const terms = searchTerms(await sampleContacts(url, 2_000), 4_000);
    const classes: { name: string; searches: (string | undefined)[] }[] = [
      { name: 'page 1, no search', searches: [undefined] },
      ...(['fragment', 'surname', 'full name', 'phone'] as TermClass[]).map((termClass) => ({
        name: termClass,
        searches: [...new Set(terms.filter((t) => t.termClass === termClass).map((t) => t.search))].slice(0, TERMS),
      })),
    ];
    const rows: string[] = [];
    const allScripts: string[] = [];
    const allDefines: string[] = [];
    let scriptNumber = 0;
    for (const { name, searches } of classes) {
      const directory = path.join(OUT, name.replace(/\W+/g, '-'));
      mkdirSync(directory, { recursive: true });
      const costs: Cost[] = [];
      const scripts: string[] = [];
      const defines: string[] = [];
      for (const search of searches) {
        const { statements } = await withStatements(database.orm.em.fork(), client, (ctx) =>
          listContacts(ctx, tenant.channelId, { page: 1, limit: 50, search }),
        );
        const cost: Cost = { buffers: 0, planningMs: 0, executionMs: 0 };
        const number = scriptNumber++;
        const plans: string[] = [];
        for (const statement of statements) {
          const [plan] = (await explain<[ExplainedPlan]>(client, statement, 'analyze, buffers, format json'))[0]!;
          cost.buffers += plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'];
          cost.planningMs += plan['Planning Time'];
          cost.executionMs += plan['Execution Time'];
          const lines = await explain<string>(client, statement, 'analyze, buffers');
          const args = statement.prepared ? `-- args: ${literalsOf(client, statement.values)}\n` : '';
          plans.push(`-- ${search ?? '(no search)'}\n${args}${lines.join('\n')}`);
        }
        costs.push(cost);
        writeFileSync(path.join(directory, `${number}.plan.txt`), plans.join('\n\n'));
        const script = path.join(directory, `${number}.sql`);
        writeFileSync(script, statements.map((s) => `${pgbenchCommand(s, number, defines)};\n`).join(''));
        scripts.push(script);
      }
      if (!name.startsWith('page')) {
        allScripts.push(...scripts);
        allDefines.push(...defines);
      }
      const load = loadavg()[0]!;
      const { tps, latency } = pgbench(scripts, defines);
      rows.push(
        `| ${name} | ${searches.length} | ${round(tps, 0)} | ${round(latency, 2)} | ` +
          `${round(mean(costs.map((c) => c.buffers)), 0)} | ` +
          `${round(mean(costs.map((c) => c.planningMs)), 2)} | ${round(mean(costs.map((c) => c.executionMs)), 2)} | ` +
          `${round(load, 1)} |`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    }
    const load = loadavg()[0]!;
    const { tps, latency } = pgbench(allScripts, allDefines);
    rows.push(
      `| the four classes mixed | ${allScripts.length} | ${round(tps, 0)} | ${round(latency, 2)} | | | | ` +
        `${round(load, 1)} |`,
    );
    process.stdout.write(
      [
        '',
        `SQL alone: pgbench, ${CLIENTS} clients, ${SECONDS} s per row; buffers, planning and execution from EXPLAIN ` +
          `(ANALYZE, BUFFERS), means per term`,
        '',
        '| class | terms | tps | avg latency ms | buffers | planning ms | execution ms | load average |',
        '|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await client.end();
    await database.close();
  }
}

await main();
