/**
 * The module list bound to the core, in one place: `http/`, `events/` and `db/` know no module; they are handed
 * what is derived here.
 */
import type { z } from 'zod';
import type { Config } from './config.js';
import { openDatabase as openDatabaseOf, ormConfig as ormConfigOf, type Database } from './db/orm.js';
import { createSeeder } from './db/seed/seed.loader.js';
import type { Logger } from './logger.js';
import { modules } from './modules/index.js';
import { PortalSession } from './portal/portal-session.entity.js';

type Module = (typeof modules)[number];
type Section = NonNullable<Module['seed']>[number];

/** Every table the ORM knows: the modules' entities and the portal's session store. */
export const entities = [...modules.flatMap((module) => module.entities), PortalSession];
export const routeSlices = modules.flatMap((module) => module.routes ?? []);
export const receivers = modules.flatMap((module) => (module.receivers ? [module.receivers] : []));
export const serviceProviders = modules.flatMap((module) => module.services ?? []);
export const jobFactories = modules.flatMap((module) => (module.jobs ? [module.jobs] : []));

const seeder = createSeeder<Section>(modules.flatMap((module): readonly Section[] => module.seed ?? []));
export const { seed, parse: parseSeedFile } = seeder;
/** A seed file as written (every section optional); `pnpm cli seed` and the tests load these. */
export type SeedFile = z.input<typeof seeder.schema>;
export type SeedResult = Awaited<ReturnType<typeof seeder.seed>>;

export const ormConfig = (clientUrl: string, poolMax?: number, logger?: Logger) => ormConfigOf(entities, clientUrl, poolMax, logger);
export const openDatabase = (config: Config, logger: Logger, poolMax?: number): Promise<Database> =>
  openDatabaseOf(entities, config, logger, poolMax);
