import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExampleIdName } from '@switchboard/contract';
import { Platform } from './modules/platforms/index.js';
import { demoSeed, exampleIds, seed, type SeedResult } from './wiring.js';

export { DEMO_PASSWORD } from './modules/users/index.js';
/** What a fresh install shows: one platform, its owner, two channels and enough data to try every endpoint. */
export { demoSeed };

/** Loads the demo data when the database has no platform yet; returns what was created, or null. */
export async function seedDemoIfEmpty(em: EntityManager): Promise<SeedResult | null> {
  if (await em.count(Platform, {})) return null;
  return seed(em, demoSeed);
}

/**
 * The contract's sample ids as the seeded demo has them (`section.ref` of each module's example: an id, or the `id`
 * of what the section reports), e.g. to fill a Postman environment. Ids the demo has no entry for are absent.
 */
export function demoExampleIds(result: SeedResult): Partial<Record<ExampleIdName, string>> {
  const seeded = result as Record<string, Record<string, string | { id: string }> | undefined>;
  const ids: Partial<Record<ExampleIdName, string>> = {};
  for (const [name, { demo }] of exampleIds) {
    const [section, ref] = demo?.split('.') ?? [];
    const value = section && ref ? seeded[section]?.[ref] : undefined;
    if (value !== undefined) ids[name] = typeof value === 'string' ? value : value.id;
  }
  return ids;
}
