import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createLogger, startEmbeddedPostgres } from '@switchboard/server';
import { freePort } from './ports.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server where each suite creates its own fresh database. */
    adminDatabaseUrl: string;
  }
}

/** One throwaway embedded PostgreSQL per run, or the server named by DATABASE_URL. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('adminDatabaseUrl', process.env.DATABASE_URL);
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-test-pg-'));
  const database = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: 'postgres',
    logger: createLogger('warn', 2),
    persistent: false,
  });
  project.provide('adminDatabaseUrl', database.url);
  return async () => {
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
