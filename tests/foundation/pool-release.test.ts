import pg from 'pg';
import { createLogger, loadConfig, openDatabase } from '@switchboard/server';
import { describe, expect, it, vi } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';

/**
 * A transaction whose connection PostgreSQL cuts (a restart, a failover, pg_terminate_backend) fails its ROLLBACK:
 * kysely (under MikroORM) then kept the pooled connection for good, so the pool shrank by one each time and closing
 * it hung (kysely-org/kysely#1990; patches/kysely@0.29.6.patch gives it back).
 */
describe('a pooled connection cut in the middle of a transaction', { timeout: 60_000 }, () => {
  it('goes back to the pool: a pool of one serves the next transaction, and closes', async () => {
    const url = await createFreshDatabase();
    await sql(url, 'create table held (id int)');
    const config = loadConfig({ DATABASE_URL: url, DB_ACQUIRE_TIMEOUT_MS: '3000' });
    const database = await openDatabase(config, createLogger('silent'), 1);
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table held in access exclusive mode');
      const blocked = database.orm.em
        .fork()
        .transactional((tx) => tx.execute('select count(*) from held'))
        .then(
          () => 'committed',
          (error: Error) => error.message,
        );
      const pid = await vi.waitFor(
        async () => {
          const [row] = await sql<{ pid: number }>(
            url,
            `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          );
          expect(row).toBeDefined();
          return row!.pid;
        },
        { timeout: 10_000, interval: 50 },
      );
      await sql(url, 'select pg_terminate_backend($1)', [pid]);
      expect(await blocked).toMatch(/terminat/);
    } finally {
      await locker.end();
    }
    const [row] = await database.orm.em.fork().transactional((tx) => tx.execute<{ one: number }[]>('select 1 as one'));
    expect(row).toEqual({ one: 1 });
    const closed = await Promise.race([
      database.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('still open after 10 s'), 10_000).unref()),
    ]);
    expect(closed).toBe('closed');
  });
});
