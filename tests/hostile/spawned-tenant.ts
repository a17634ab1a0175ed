import { existsSync } from 'node:fs';
import path from 'node:path';
import { createLogger, loadConfig, migrate, openDatabase, seed } from '@switchboard/server';
import type { SeedFile } from '@switchboard/server';
import { tenantSeed } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { sealingServices, TEST_SECRETS_KEY } from '../helpers/secrets-key.js';

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
  /** The SECRETS_KEY the spawned server will run with: webhook secrets in the file are sealed with it. */
  secretsKey = TEST_SECRETS_KEY,
): Promise<SpawnedTenant> {
  if (!existsSync(path.join(REPO_ROOT, 'apps/server/dist/main.js')))
    throw new Error('Build the server first: pnpm --filter @switchboard/server build');
  const database = await openDatabase(
    loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SECRETS_KEY: secretsKey }),
    createLogger('silent'),
    2,
  );
  try {
    await migrate(database.orm);
    const file = tenantSeed('Acme');
    adjust(file);
    const ids = await seed(database.orm.em.fork(), file, sealingServices(database.secrets));
    return {
      keys: ['owner', 'member', 'auditor', 'lonely'].map((ref) => ids.users![ref]!.apiKey!),
      platformId: ids.platforms!.p!,
      ticketId: ids.tickets!.t1!.id,
    };
  } finally {
    await database.close();
  }
}
