import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '@switchboard/contract';
import { z, type ZodIssue } from 'zod';
import type { AnySeedSection } from '../../kit/module.js';
import { SeedError, type SeedContext, type SeedSection } from '../../kit/seed.js';
import type { Services } from '../../kit/services.js';

/** The seed file's shape: one optional list per section, in the sections' order. */
type SeedShape<S extends AnySeedSection> = { [X in S as X['key']]: z.ZodDefault<z.ZodArray<X['item']>> };
export type SeedFileSchema<S extends AnySeedSection> = z.ZodObject<SeedShape<S>, 'strict'>;
/** What each ref of the file became, per section (an id, or what the section reports, e.g. a user's API key). */
export type SeedResultOf<S extends AnySeedSection> = {
  [X in S as X['key']]?: Record<string, X extends SeedSection<string, z.ZodTypeAny, infer R> ? R : never>;
};

function jsonPath(path: (string | number)[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
}

/** One load of a seed file: the entries created so far, by section and ref, so later sections can point at them. */
class SeedRun implements SeedContext {
  private readonly byRef = new Map<string, object>();
  private readonly byKey = new Map<EntityClass<object>, Map<string, object>>();

  constructor(
    readonly em: EntityManager,
    readonly services: Pick<Services, 'get'> | undefined,
  ) {}

  async ref<T extends object>(section: string, entity: EntityClass<T>, ref: string, path: string): Promise<T> {
    const local = this.byRef.get(`${section}:${ref}`);
    if (local) return local as T;
    if (isUuid(ref)) {
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

/**
 * The seed file loader, composed from the modules' seed sections: the file schema (every section optional,
 * refs tie entries together within the file), parsing with errors located by JSON path, and loading.
 */
export function createSeeder<S extends AnySeedSection>(sections: readonly S[]) {
  const schema = z
    .object(Object.fromEntries(sections.map((section) => [section.key, z.array(section.item).default([])])))
    .strict() as unknown as SeedFileSchema<S>;
  type File = z.output<SeedFileSchema<S>>;
  type Result = SeedResultOf<S>;

  function parse(input: unknown): File {
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const issue: ZodIssue = parsed.error.issues[0]!;
      throw new SeedError(jsonPath(issue.path), issue.message);
    }
    return parsed.data;
  }

  /**
   * Creates everything the file describes inside the caller's transaction and returns what each ref became.
   * Any invalid entry throws a SeedError naming its JSON path; the caller's transaction then writes nothing.
   */
  async function load(em: EntityManager, file: File, services?: Pick<Services, 'get'>): Promise<Result> {
    const run = new SeedRun(em, services);
    const result: Record<string, Record<string, unknown>> = {};
    for (const section of sections) {
      const items = (file as Record<string, { ref?: string }[]>)[section.key] ?? [];
      for (const [i, item] of items.entries()) {
        const path = `${section.key}[${i}]`;
        const { entity, result: value } = await section.load(run, item, path);
        if (item.ref === undefined) continue;
        run.remember(section.key, item.ref, entity, path);
        (result[section.key] ??= {})[item.ref] = value;
      }
    }
    await em.flush();
    return result as Result;
  }

  /** Parses and loads a seed file in one transaction: all or nothing. `services` lets sections reach outside services. */
  async function seed(em: EntityManager, input: unknown, services?: Pick<Services, 'get'>): Promise<Result> {
    const file = parse(input);
    return em.transactional((tx) => load(tx, file, services));
  }

  return { schema, parse, load, seed };
}
