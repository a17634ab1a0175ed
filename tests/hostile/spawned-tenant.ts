import { existsSync } from 'node:fs';
import path from 'node:path';
import { createLogger, loadConfig, migrate, openDatabase, seed } from '@switchboard/server';
import { tenantSeed } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/processes.js';

/**
 * Prepares `databaseUrl` for a server process spawned from the build (which does not migrate a configured
 * database by itself): migrates it, seeds the Acme tenant and returns its users' API keys for a load loop.
 */
export async function prepareSpawnedTenant(databaseUrl: string): Promise<string[]> {
  if (!existsSync(path.join(REPO_ROOT, 'apps/server/dist/main.js'))) throw new Error('Build the server first: pnpm --filter @switchboard/server build');
  const database = await openDatabase(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }), createLogger('silent'), 2);
  try {
    await migrate(database.orm);
    const ids = await seed(database.orm.em.fork(), tenantSeed('Acme'));
    return ['owner', 'member', 'auditor', 'lonely'].map((ref) => ids.users![ref]!.apiKey!);
  } finally {
    await database.close();
  }
}
