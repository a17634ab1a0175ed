/**
 * What chat/conversations/list asks of PostgreSQL, without HTTP: the exact statements the service sends for the
 * unfiltered page 1 and for each filter of the benchmark's agent inbox (`inboxFilters` of api.bench.ts), each run
 * under EXPLAIN (ANALYZE, BUFFERS) after a warm-up (so the figures are of a warm cache, as under load), a prepared
 * statement as the server runs it (its generic plan, planned once per connection: its planning is not the request's).
 * Prints a Markdown table (buffers hit and read, planning and execution ms) and leaves every plan in
 * tests/artifacts/inbox-plans.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/switchboard_bench_1000000_100000 \
 *     npx tsx tests/bench/inbox-plans.ts
 *
 * Needs a database seeded by `pnpm bench` (BENCH_KEEP=1 or BENCH_SEED_ONLY=1) with the current migrations applied.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Caller } from '../../apps/server/src/kit/context.js';
import { listConversations } from '../../apps/server/src/modules/conversations/conversation.service.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { lifecycleAssignees } from './bulk-messages.js';
import { inboxQueries } from './inbox-queries.js';
import { explain, seededDatabase, withStatements } from './recorded-sql.js';

const OUT = path.join(REPO_ROOT, 'tests', 'artifacts', 'inbox-plans');

interface ExplainedPlan {
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
  'Planning Time': number;
  'Execution Time': number;
}

async function main() {
  const { url, tenant, database, client } = await seededDatabase(process.env.BENCH_DATABASE_URL);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const assignees = await lifecycleAssignees(url, tenant.channelId);
  // Only `assigneeId: me` reads the caller, and the benchmark's filters name users by id.
  const caller = { userId: assignees[0] } as Caller;
  const rows: string[] = [];
  try {
    const queries = inboxQueries(assignees);
    for (const [index, { name, query }] of queries.entries()) {
      const run = () =>
        withStatements(database.orm.em.fork(), client, (ctx) =>
          listConversations({ ...ctx, caller }, tenant.channelId, { page: 1, limit: 50, ...query }),
        );
      for (let warm = 0; warm < 3; warm++) await run();
      const { statements } = await run();
      const texts: string[] = [];
      let hit = 0;
      let read = 0;
      let planningMs = 0;
      let executionMs = 0;
      for (const statement of statements) {
        const [plan] = (await explain<[ExplainedPlan]>(client, statement, 'analyze, buffers, format json'))[0]!;
        hit += plan.Plan['Shared Hit Blocks'];
        read += plan.Plan['Shared Read Blocks'];
        planningMs += plan['Planning Time'];
        executionMs += plan['Execution Time'];
        texts.push((await explain<string>(client, statement, 'analyze, buffers')).join('\n'));
      }
      writeFileSync(path.join(OUT, `${index}.plan.txt`), `-- ${name}\n${texts.join('\n\n')}\n`);
      rows.push(
        `| ${name} | ${statements.length} | ${hit} | ${read} | ${planningMs.toFixed(2)} | ${executionMs.toFixed(2)} |`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    }
    process.stdout.write(
      [
        '',
        'chat/conversations/list page 1, EXPLAIN (ANALYZE, BUFFERS) after a warm-up, every statement of a request',
        '',
        '| query | statements | shared buffers hit | read | planning ms | execution ms |',
        '|---|---|---|---|---|---|',
        ...rows,
        `\nplans: ${OUT}\n`,
      ].join('\n'),
    );
  } finally {
    await client.end();
    await database.close();
  }
}

await main();
