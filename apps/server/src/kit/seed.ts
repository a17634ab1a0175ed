import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { JobQueue } from './jobs.js';
import type { Services } from './services.js';

/** A problem in the seed file, located by its JSON path (e.g. `users[0].platform`). */
export class SeedError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(path ? `${path}: ${problem}` : problem);
  }
}

/** What a seed section loads its entries with; the loader (db/seed) provides it. */
export interface SeedContext {
  em: EntityManager;
  /** An entry of an earlier section by its ref, or an existing row by its UUID; else a SeedError at `path`. */
  ref<T extends object>(section: string, entity: EntityClass<T>, ref: string, path: string): Promise<T>;
  /**
   * Entities of one kind this file has created so far (not yet flushed), under a key of the sections' choosing,
   * e.g. users by `platformId:email`: how a later section finds them, and how a section spots duplicates.
   */
  created<T extends object>(entity: EntityClass<T>): Map<string, T>;
  /**
   * The modules' started services (e.g. the WhatsApp Graph client, to check a channel's credentials), when the
   * loader was given them: `pnpm cli seed` and the server are; a bare load of sandbox data need not be.
   */
  services: Pick<Services, 'get'> | undefined;
  /**
   * The job queue, when the loader was given one (`pnpm cli seed` and a running server's loads are): what a section
   * queues through the file's transaction (a seeded contact's automation trigger) exists once the file commits.
   */
  jobs: JobQueue | undefined;
}

/** What one entry became: the entity (for refs in later sections) and what the seed result shows for its ref. */
export interface SeededEntry<R> {
  entity: object;
  result: R;
}

/**
 * One top-level list of the seed file (e.g. `labels`): the schema of an entry and how to create it. Sections
 * load in the order of the module list, so an entry can refer to entries of earlier sections.
 */
export interface SeedSection<K extends string = string, Item extends z.ZodTypeAny = z.ZodTypeAny, R = unknown> {
  key: K;
  item: Item;
  load(ctx: SeedContext, item: z.output<Item>, path: string): Promise<SeededEntry<R>>;
}

export const seedSection = <K extends string, Item extends z.ZodTypeAny, R>(section: SeedSection<K, Item, R>) =>
  section;

/**
 * Fields a module adds to the entries of a lower module's section, and what it does with them once such an entry
 * exists: how a module seeds its part of an entry it builds on (an API key for a user, webhooks of a platform, a
 * channel's WhatsApp connection) while the lower module knows nothing of it. `load` runs right after the section
 * created the entry; an object it returns is merged into that entry's result.
 */
export interface SeedExtension<
  K extends string = string,
  Fields extends z.ZodRawShape = z.ZodRawShape,
  E = never,
  R = void,
> {
  /** The key of the section whose entries gain `fields`, e.g. `users`. */
  extends: K;
  fields: Fields;
  load(ctx: SeedContext, entity: E, values: z.output<z.ZodObject<Fields>>, path: string): Promise<R>;
}

export const seedExtension = <K extends string, Fields extends z.ZodRawShape, E, R = void>(
  extension: SeedExtension<K, Fields, E, R>,
) => extension;

/** The id of an entry, what most sections report for a ref. */
export const seededId = <E extends { id: string }>(entity: E): SeededEntry<string> => ({ entity, result: entity.id });

/** Any output: only the object inside matters here. */
type ParamsSchema = z.AnyZodObject | z.ZodEffects<z.AnyZodObject, unknown, unknown>;
type ObjectOf<S extends ParamsSchema> = S extends z.ZodEffects<infer O, unknown, unknown> ? O : S;

/**
 * The fields of a contract endpoint's parameters (inside its cross-field rules, if it has any): what a seed item
 * takes its fields from, so the seed file and the API accept the same values.
 */
export function contractFields<S extends ParamsSchema>(params: S): ObjectOf<S>['shape'] {
  const object: z.AnyZodObject = params instanceof z.ZodEffects ? params.innerType() : (params as z.AnyZodObject);
  return object.shape;
}

/** A ref: how entries of the file point at each other (`"platform": "acme"`). */
export const seedRef = z.string().min(1);
