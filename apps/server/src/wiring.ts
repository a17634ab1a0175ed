/**
 * The module list bound to the core, in one place: `http/`, `events/` and `db/` know no module; they are handed
 * what is derived here.
 */
import type { Config } from './config.js';
import { openDatabase as openDatabaseOf, ormConfig as ormConfigOf, type Database } from './db/orm.js';
import { createSeeder, type SeedFileOf, type SeedResultOf } from './db/seed/seed.loader.js';
import type { Logger } from './logger.js';
import { modules } from './modules/index.js';
import { portalModule } from './portal/portal.module.js';

type Module = (typeof modules)[number];
type SeedEntry = NonNullable<Module['seed']>[number];

/** Every table the ORM knows: the modules' entities and the portal's (its session store). */
export const entities = [...modules, portalModule].flatMap((manifest) => manifest.entities);
export const routeSlices = modules.flatMap((module) => module.routes ?? []);
export const receivers = modules.flatMap((module) => (module.receivers ? [module.receivers] : []));
export const serviceProviders = modules.flatMap((module) => module.services ?? []);
export const jobFactories = modules.flatMap((module) => (module.jobs ? [module.jobs] : []));

export const { seed } = createSeeder<SeedEntry>(modules.flatMap((module): readonly SeedEntry[] => module.seed ?? []));
/** A seed file as written (every section optional); `pnpm cli seed` and the tests load these. */
export type SeedFile = SeedFileOf<SeedEntry>;
export type SeedResult = SeedResultOf<SeedEntry>;

export const ormConfig = (clientUrl: string, poolMax?: number, logger?: Logger) => ormConfigOf(entities, clientUrl, poolMax, logger);
export const openDatabase = (config: Config, logger: Logger, poolMax?: number): Promise<Database> =>
  openDatabaseOf(entities, config, logger, poolMax);
