/**
 * The module list bound to the core, in one place: `http/`, `jobs/` and `db/` know no module; they are handed
 * what is derived here.
 */
import type { ExampleIdName } from '@switchboard/contract';
import type { Config } from './config.js';
import { openDatabase as openDatabaseOf, ormConfig as ormConfigOf, type Database, type Schema } from './db/orm.js';
import { queueEntities } from './jobs/fair-share.entity.js';
import { WorkerSchedule } from './jobs/worker-schedule.entity.js';
import { createSeeder, type SeedFileOf, type SeedResultOf } from './db/seed/seed-loader.js';
import type { ExampleId } from './kit/module.js';
import type { Logger } from './logger.js';
import { modules } from './modules/index.js';

type Module = (typeof modules)[number];
type SeedEntry = NonNullable<Module['seed']>[number];

/**
 * Every table the ORM knows: the modules' entities (the portal's session store among them), the job queue's and the
 * shared periodic jobs' schedules.
 */
const entities = [...modules.flatMap((manifest) => manifest.entities), ...queueEntities, WorkerSchedule];
const schema: Schema = { entities, sessionSettings: sessionSettingsOf(modules) };
export const routeSlices = modules.flatMap((module) => module.routes ?? []);
export const streamRoutes = modules.flatMap((module) => module.streams ?? []);
export const receivers = modules.flatMap((module) => (module.receivers ? [module.receivers] : []));
export const publicRoutes = modules.flatMap((module) => (module.publicRoutes ? [module.publicRoutes] : []));
export const serviceProviders = modules.flatMap((module) => module.services ?? []);
export const jobFactories = modules.flatMap((module) => (module.jobs ? [module.jobs] : []));
export const deliveryFailureGauges = modules.flatMap((module) => module.metrics?.deliveryFailures ?? []);

/** The modules' session settings, one value per setting: two modules asking for different values is a bug. */
function sessionSettingsOf(manifests: readonly Module[]): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const { name, sessionSettings } of manifests) {
    for (const [setting, value] of Object.entries(sessionSettings ?? {})) {
      if (settings[setting] !== undefined && settings[setting] !== value)
        throw new Error(`module ${name} sets ${setting}=${value}, another module ${settings[setting]}`);
      settings[setting] = value;
    }
  }
  return settings;
}

/**
 * The demo data: every module's entries in module order (the seed order), then the fields modules add to other
 * modules' entries (an API key for the owner) merged into the entry with that ref.
 */
function demoOf(manifests: readonly Module[]): SeedFile {
  type Entry = Record<string, unknown>;
  const sections: Record<string, Entry[]> = {};
  const additions: [section: string, ref: string, fields: Entry][] = [];
  for (const { demo } of manifests) {
    for (const [section, part] of Object.entries(demo ?? {}) as [string, Entry[] | Record<string, Entry>][]) {
      if (Array.isArray(part)) (sections[section] ??= []).push(...part.map((entry) => ({ ...entry })));
      else
        additions.push(...Object.entries(part).map(([ref, fields]): [string, string, Entry] => [section, ref, fields]));
    }
  }
  for (const [section, ref, fields] of additions) {
    const entry = sections[section]?.find((candidate) => candidate.ref === ref);
    if (!entry) throw new Error(`demo data: a module adds fields to ${section}.${ref}, which no module's demo has`);
    Object.assign(entry, fields);
  }
  return sections as SeedFile;
}

export const { seed } = createSeeder<SeedEntry>(modules.flatMap((module): readonly SeedEntry[] => module.seed ?? []));
/** A seed file as written (every section optional); `pnpm cli seed` and the tests load these. */
export type SeedFile = SeedFileOf<SeedEntry>;
export type SeedResult = SeedResultOf<SeedEntry>;
export const demoSeed = demoOf(modules);
/** The contract's sample ids (EXAMPLE_IDS) the modules fill: with demo entries, and with a portal viewer's own. */
export const exampleIds = modules.flatMap(
  (module) => Object.entries(module.examples ?? {}) as [ExampleIdName, ExampleId][],
);

export const ormConfig = (clientUrl: string, poolMax?: number, logger?: Logger) =>
  ormConfigOf(schema, clientUrl, poolMax, logger);
export const openDatabase = (config: Config, logger: Logger, poolMax?: number): Promise<Database> =>
  openDatabaseOf(schema, config, logger, poolMax);
