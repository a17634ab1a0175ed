import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '@switchboard/contract';
import { z, type ZodIssue } from 'zod';
import type { AnySeedEntry, AnySeedExtension, AnySeedSection } from '../../kit/module.js';
import { SeedError, type SeedContext, type SeedExtension, type SeedSection } from '../../kit/seed.js';
import type { JobQueue } from '../../kit/jobs.js';
import type { Services } from '../../kit/services.js';

type SectionsOf<S extends AnySeedEntry> = Extract<S, AnySeedSection>;
/** `(value: T) => void` per extension of section K: inferring T back from their union intersects them. */
type PerExtension<X, K, T> = X extends { extends: K } ? (value: T) => void : never;
type Intersected<F> = [F] extends [never] ? unknown : F extends (value: infer I) => void ? I : never;
/** The fields every extension of section K adds to its entries (unknown when none does). */
type ExtensionFields<S extends AnySeedEntry, K> = Intersected<
  S extends SeedExtension<string, infer F, never, unknown> ? PerExtension<S, K, z.input<z.ZodObject<F>>> : never
>;
/** What the extensions of section K add to an entry's result (unknown when none adds anything). */
type ExtensionResults<S extends AnySeedEntry, K> = Intersected<
  S extends SeedExtension<string, z.ZodRawShape, never, infer R>
    ? [R] extends [void]
      ? never
      : PerExtension<S, K, R>
    : never
>;

/** A seed file as written: one optional list per section, each entry with its section's and extensions' fields. */
export type SeedFileOf<S extends AnySeedEntry> = {
  [X in SectionsOf<S> as X['key']]?: (z.input<X['item']> & ExtensionFields<S, X['key']>)[];
};
/** What each ref of the file became, per section (an id, or what the section reports, e.g. a user's API key). */
export type SeedResultOf<S extends AnySeedEntry> = {
  [X in SectionsOf<S> as X['key']]?: Record<
    string,
    (X extends SeedSection<string, z.ZodTypeAny, infer R> ? R : never) & ExtensionResults<S, X['key']>
  >;
};

function jsonPath(path: (string | number)[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    '',
  );
}

/** One load of a seed file: the entries created so far, by section and ref, so later sections can point at them. */
class SeedRun implements SeedContext {
  private readonly byRef = new Map<string, object>();
  private readonly byKey = new Map<EntityClass<object>, Map<string, object>>();

  constructor(
    readonly em: EntityManager,
    readonly services: Pick<Services, 'get'> | undefined,
    readonly jobs: JobQueue | undefined,
  ) {}

  async ref<T extends object>(section: string, entity: EntityClass<T>, ref: string, path: string): Promise<T> {
    const local = this.byRef.get(`${section}:${ref}`);
    if (local) return local as T;
    if (isUuid(ref)) {
      // Library seam: MikroORM's filter type cannot see the `id` of an entity class known only as a type parameter.
      const existing = await this.em.findOne(entity, { id: ref } as never);
      if (existing) return existing;
    }
    throw new SeedError(path, `unknown ${section} ref "${ref}"`);
  }

  created<T extends object>(entity: EntityClass<T>): Map<string, T> {
    if (!this.byKey.has(entity)) this.byKey.set(entity, new Map());
    return this.byKey.get(entity) as Map<string, T>;
  }

  remember(section: string, ref: string, entity: object, path: string) {
    const key = `${section}:${ref}`;
    if (this.byRef.has(key)) throw new SeedError(`${path}.ref`, `duplicate ref "${ref}"`);
    this.byRef.set(key, entity);
  }
}

const isExtension = (entry: AnySeedEntry): entry is AnySeedExtension => 'extends' in entry;
const isSection = (entry: AnySeedEntry): entry is AnySeedSection => !isExtension(entry);

/** A section's entry schema with the fields its extensions add (sections that are extended are plain objects). */
function entrySchema(section: AnySeedSection, extensions: readonly AnySeedExtension[]): z.ZodTypeAny {
  if (extensions.length === 0) return section.item;
  if (!(section.item instanceof z.ZodObject))
    throw new Error(`seed section "${section.key}" is extended, so its item must be a z.object`);
  return extensions.reduce<z.AnyZodObject>((item, extension) => item.extend(extension.fields), section.item);
}

/** Every section optional; an extension of a section no module has is a wiring mistake, refused at start-up. */
function fileSchema(
  sections: readonly AnySeedSection[],
  extensions: readonly AnySeedExtension[],
  extensionsOf: (key: string) => AnySeedExtension[],
) {
  for (const extension of extensions) {
    if (!sections.some((section) => section.key === extension.extends))
      throw new Error(`a seed extension extends "${extension.extends}", which no module has`);
  }
  return z
    .object(
      Object.fromEntries(
        sections.map((section) => [section.key, z.array(entrySchema(section, extensionsOf(section.key))).default([])]),
      ),
    )
    .strict();
}

/**
 * The seed file loader, composed from the modules' seed sections and extensions: the file schema (every section
 * optional, refs tie entries together within the file), parsing with errors located by JSON path, and loading.
 */
export function createSeeder<S extends AnySeedEntry>(entries: readonly S[]) {
  const sections = (entries as readonly AnySeedEntry[]).filter(isSection);
  const extensions = (entries as readonly AnySeedEntry[]).filter(isExtension);
  const extensionsOf = (key: string) => extensions.filter((extension) => extension.extends === key);
  const schema = fileSchema(sections, extensions, extensionsOf);
  /** A parsed file: defaults applied, every section present. */
  type File = Record<string, Record<string, unknown>[]>;
  type Result = SeedResultOf<S>;

  function parse(input: unknown): File {
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const issue: ZodIssue = parsed.error.issues[0]!;
      throw new SeedError(jsonPath(issue.path), issue.message);
    }
    return parsed.data as File;
  }

  /** One entry: the section's load, then each extension's on the entity it created; their results merged. */
  async function loadEntry(run: SeedRun, section: AnySeedSection, item: Record<string, unknown>, path: string) {
    const loaded = await section.load(run, item, path);
    let result = loaded.result;
    for (const extension of extensionsOf(section.key)) {
      const added: unknown = await extension.load(run, loaded.entity, item, path);
      if (added !== undefined) result = { ...(result as object), ...(added as object) };
    }
    return { entity: loaded.entity, result };
  }

  /**
   * Creates everything the file describes inside the caller's transaction and returns what each ref became.
   * Any invalid entry throws a SeedError naming its JSON path; the caller's transaction then writes nothing.
   */
  async function load(
    em: EntityManager,
    file: File,
    services?: Pick<Services, 'get'>,
    jobs?: JobQueue,
  ): Promise<Result> {
    const run = new SeedRun(em, services, jobs);
    const result: Record<string, Record<string, unknown>> = {};
    for (const section of sections) {
      const items = file[section.key] ?? [];
      for (const [i, item] of items.entries()) {
        const path = `${section.key}[${i}]`;
        const { entity, result: value } = await loadEntry(run, section, item, path);
        const { ref } = item as { ref?: string };
        if (ref === undefined) continue;
        run.remember(section.key, ref, entity, path);
        (result[section.key] ??= {})[ref] = value;
      }
    }
    await em.flush();
    return result as Result;
  }

  /**
   * Parses and loads a seed file in one transaction: all or nothing. `services` lets sections reach outside services,
   * `jobs` queue what the file's entries trigger.
   */
  async function seed(
    em: EntityManager,
    input: unknown,
    services?: Pick<Services, 'get'>,
    jobs?: JobQueue,
  ): Promise<Result> {
    const file = parse(input);
    return em.transactional((tx) => load(tx, file, services, jobs));
  }

  return { seed };
}
