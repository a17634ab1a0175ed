import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { runCli, spawnServer, type ServerProcess } from '../helpers/processes.js';

const readyz = (port: string) =>
  fetch(`http://127.0.0.1:${port}/readyz`).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { message?: string },
  }));

describe('safe defaults on a configured database', { timeout: 120_000 }, () => {
  it('no migration or seed at start; /readyz is 503 until `cli migrate`, and no demo data is written', async () => {
    const databaseUrl = await createFreshDatabase();
    const server = spawnServer({ DATABASE_URL: databaseUrl, PORT: '0' });
    try {
      const [, port] = await server.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
      expect(server.output()).toMatch(/migration\(s\) pending and MIGRATE_ON_START is off/);
      const before = await readyz(port!);
      expect(before.status).toBe(503);
      expect(before.body.message).toMatch(/database migration\(s\) pending; run `pnpm cli migrate`/);
      expect(await sql(databaseUrl, `select 1 from information_schema.tables where table_name = 'platforms'`)).toEqual(
        [],
      );

      const migrated = await runCli(['migrate'], { DATABASE_URL: databaseUrl });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect((await readyz(port!)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    const restarted = spawnServer({ DATABASE_URL: databaseUrl, PORT: '0' });
    await restarted.waitFor(/Switchboard ready on/);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    expect(restarted.output()).not.toMatch(/shown once|demo/i);
    expect(await sql(databaseUrl, 'select count(*)::int as n from platforms')).toEqual([{ n: 0 }]);
    expect(await sql(databaseUrl, 'select count(*)::int as n from users')).toEqual([{ n: 0 }]);
  });

  it('`cli seed:demo` loads the demo only when asked, and only into an empty database', async () => {
    const env = { DATABASE_URL: await createFreshDatabase() };
    const first = await runCli(['seed:demo'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).users.owner.apiKey).toMatch(/^sb_live_/);
    const again = await runCli(['seed:demo'], env);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toMatch(
      /\nThe database already has a platform; the demo data only goes into an empty database\.$/,
    );
    expect(await sql(env.DATABASE_URL, 'select count(*)::int as n from platforms')).toEqual([{ n: 1 }]);
  });

  it(
    'DEMO=true: skipped with one warning while migrations are pending; /readyz is 503 while the demo data goes in, ' +
      '200 after',
    async () => {
      const databaseUrl = await createFreshDatabase();
      const stop = async (server: ServerProcess) => {
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      };

      const unmigrated = spawnServer({ DATABASE_URL: databaseUrl, DEMO: 'true', PORT: '0' });
      await unmigrated.waitFor(/Switchboard ready on/);
      await stop(unmigrated);
      expect(unmigrated.output().match(/demo data not loaded: migrations are pending/g)).toHaveLength(1);
      const migrated = await runCli(['migrate'], { DATABASE_URL: databaseUrl });
      expect(migrated.code, migrated.stderr).toBe(0);

      // The seed's first write waits behind a lock this test holds on `platforms` (reads still pass), so start-up
      // really is mid-seed while /readyz is asked; the raised statement timeout keeps the waiting insert alive.
      const lock = new pg.Client({ connectionString: databaseUrl });
      await lock.connect();
      await lock.query('begin; lock table platforms in exclusive mode');
      const port = String(await freePort());
      const seeding = spawnServer({
        DATABASE_URL: databaseUrl,
        DEMO: 'true',
        PORT: port,
        DB_STATEMENT_TIMEOUT_MS: '60000',
      });
      try {
        const waitingOnLock = async () =>
          (
            await sql<{ n: number }>(
              databaseUrl,
              `select count(*)::int as n from pg_locks where relation = 'platforms'::regclass and not granted`,
            )
          )[0]!.n > 0;
        const started = Date.now();
        while (!(await waitingOnLock())) {
          if (Date.now() - started > 30_000)
            throw new Error(`the demo seed never reached the locked table:\n${seeding.output()}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const during = await readyz(port);
        expect(during).toEqual({
          status: 503,
          body: expect.objectContaining({ success: false, message: 'Starting: demo data.' }),
        });
        expect(seeding.output()).not.toMatch(/Switchboard ready on/);

        await lock.query('commit');
        await seeding.waitFor(/Switchboard ready on/);
        expect((await readyz(port)).status).toBe(200);
        expect(await sql(databaseUrl, 'select count(*)::int as n from platforms')).toEqual([{ n: 1 }]);
      } finally {
        await lock.end();
        await stop(seeding);
      }
    },
  );

  it('NODE_ENV=production without DATABASE_URL refuses to start with one line', async () => {
    const server = spawnServer({ NODE_ENV: 'production', DATABASE_URL: '', PORT: '0' });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(
      'Invalid configuration: DATABASE_URL is required when NODE_ENV=production (the embedded PostgreSQL is for ' +
        'development)',
    );
  });
});
