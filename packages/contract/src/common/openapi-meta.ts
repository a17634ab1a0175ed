import type { z } from 'zod';

type WithMeta = { metaOpenApi?: Record<string, unknown> };

/**
 * A copy of `schema` carrying extra OpenAPI keywords (a component `title`, `anyOf` of required sets, `deprecated`).
 * The exporter's zod→OpenAPI converter (@anatine/zod-openapi, used by @ts-rest/open-api) merges `metaOpenApi` into
 * the schema it generates; validation is untouched. A copy, so shared schemas keep their own metadata.
 */
export function withOpenApi<S extends z.ZodTypeAny>(schema: S, meta: Record<string, unknown>): S {
  const copy = new (schema.constructor as new (def: unknown) => S)(schema._def);
  (copy as WithMeta).metaOpenApi = { ...(schema as WithMeta).metaOpenApi, ...meta };
  return copy;
}

/**
 * A schema that the OpenAPI names as a component (`#/components/schemas/<name>`): generators emit a type of that name.
 */
export const named = <S extends z.ZodTypeAny>(name: string, schema: S): S => withOpenApi(schema, { title: name });
