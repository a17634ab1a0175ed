import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, startEmbeddedPostgres } from '@switchboard/server';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';

/**
 * The embedded PostgreSQL's superuser gets a random password, generated into the data directory (mode 600) when
 * the cluster is created; a cluster made before that keeps its former password (issue #31).
 */
describe('the embedded PostgreSQL password', { timeout: 300_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-pg-password-'));
  const logger = createLogger('silent');
  const passwordFile = path.join(dataDir, 'pg.password');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const start = async (port: number) => startEmbeddedPostgres({ dataDir, port, database: 'switchboard', logger });
  const withPassword = (url: string, password: string) => url.replace(/:[^:@/]+@/, `:${password}@`);
  const refused = (url: string) =>
    sql(url, 'select 1').then(
      () => false,
      () => true,
    );

  it('is random, kept in .data with mode 600, and the only way in', async () => {
    const port = await freePort();
    const cluster = await start(port);
    try {
      const password = readFileSync(passwordFile, 'utf8').trim();
      expect(password).toMatch(/^[0-9a-f]{48}$/);
      expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
      expect(cluster.url).toContain(`:${password}@`);
      expect(await sql(cluster.url, 'select 1 as one')).toEqual([{ one: 1 }]);
      expect(await refused(withPassword(cluster.url, 'postgres'))).toBe(true);
    } finally {
      await cluster.stop();
    }
    // A restart reads the same password.
    const again = await start(port);
    try {
      expect(await sql(again.url, 'select 1 as one')).toEqual([{ one: 1 }]);
      // A cluster from before the password file: its superuser has the former password, and no file.
      await sql(again.url, `alter user postgres password 'postgres'`);
    } finally {
      await again.stop();
    }
    unlinkSync(passwordFile);
    const former = await start(port);
    try {
      expect(former.url).toContain(':postgres@');
      expect(await sql(former.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await former.stop();
    }
  });
});
