import { describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { scrapeMetrics, valueOf } from '../helpers/metrics.js';
import { startTestServer } from '../helpers/server.js';

const RETENTION = '{worker="event-stream.retention"}';
const TEMPLATE_SYNC = '{worker="whatsapp.template-sync-schedule"}';

/**
 * Shared periodic jobs (retention, the template sync) run one pass per period across every instance, on a schedule
 * kept in PostgreSQL: two instances started within the hour run one retention pass between them, and the template
 * sync's first pass is a period ahead, for whichever instance comes then, restarted or not.
 */
describe('shared periodic jobs', () => {
  it('two instances run one pass between them, on a schedule PostgreSQL keeps', { timeout: 120_000 }, async () => {
    const databaseUrl = await createFreshDatabase();
    const env = { DATABASE_URL: databaseUrl, METRICS_PORT: '0', TEMPLATE_SYNC_MINUTES: '30' };
    // One after the other: each migrates the database at start.
    const servers = [await startTestServer(env), await startTestServer(env)];
    try {
      const scrapes = () => Promise.all(servers.map((server) => scrapeMetrics(server.metricsUrl!)));
      const total = (scraped: string[], series: string) => scraped.reduce((sum, s) => sum + valueOf(s, series), 0);
      // Each instance checks at start: one runs the pass, the other finds it not due.
      await expect
        .poll(async () => {
          const scraped = await scrapes();
          return (
            total(scraped, `switchboard_worker_runs_total${RETENTION}`) +
            total(scraped, `switchboard_worker_not_due_total${RETENTION}`)
          );
        })
        .toBe(2);
      const scraped = await scrapes();
      expect(total(scraped, `switchboard_worker_runs_total${RETENTION}`)).toBe(1);
      expect(total(scraped, `switchboard_worker_runs_total${TEMPLATE_SYNC}`)).toBe(0);
      const schedules = await sql<{ name: string; minutes: number }>(
        databaseUrl,
        `select name, round(extract(epoch from next_pass_at - now()) / 60)::int as minutes from worker_schedules
          where name in ('event-stream.retention', 'whatsapp.template-sync-schedule') order by name`,
      );
      expect(schedules).toEqual([
        { name: 'event-stream.retention', minutes: 60 },
        { name: 'whatsapp.template-sync-schedule', minutes: 30 },
      ]);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});
