import { existsSync } from 'node:fs';
import path from 'node:path';
import { createLogger, loadConfig, migrate, openDatabase, seed } from '@switchboard/server';
import type { SeedFile } from '@switchboard/server';
import { tenantSeed } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/processes.js';

export interface SpawnedTenant {
  /** The users' API keys (owner first), for a load loop. */
  keys: string[];
  platformId: string;
  ticketId: string;
}

/**
 * Prepares `databaseUrl` for a server process spawned from the build (which does not migrate a configured
 * database by itself): migrates it and seeds the Acme tenant, after `adjust` has had its say on the seed file.
 */
export async function prepareSpawnedTenant(
  databaseUrl: string,
  adjust: (file: SeedFile) => void = () => undefined,
): Promise<SpawnedTenant> {
  if (!existsSync(path.join(REPO_ROOT, 'apps/server/dist/main.js')))
    throw new Error('Build the server first: pnpm --filter @switchboard/server build');
  const database = await openDatabase(
    loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }),
    createLogger('silent'),
    2,
  );
  try {
    await migrate(database.orm);
    const file = tenantSeed('Acme');
    adjust(file);
    const ids = await seed(database.orm.em.fork(), file);
    return {
      keys: ['owner', 'member', 'auditor', 'lonely'].map((ref) => ids.users![ref]!.apiKey!),
      platformId: ids.platforms!.p!,
      ticketId: ids.tickets!.t1!.id,
    };
  } finally {
    await database.close();
  }
}
