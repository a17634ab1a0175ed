import { z } from 'zod';
import { withOpenApi } from './openapi-meta.js';

/** One parameter a rule refuses, and why: the 400 reads `field: problem`. */
export interface FieldProblem {
  field: string;
  problem: string;
}

export interface FieldRules<Values, Output> {
  /**
   * The field sets of which one must be given (create vs update, id vs name): the OpenAPI's `anyOf` of `required`
   * lists; none when every field is optional. `check` must refuse a request that completes none of them, with its
   * own message.
   */
  sets: readonly (readonly (keyof Values & string)[])[];
  /** Rules across fields, run once every field is valid on its own; the 400 names each field refused. */
  check(values: Values): FieldProblem[];
  /** What handlers receive (e.g. a deprecated alias resolved); by default the values as parsed. */
  resolve?(values: Values): Output;
}

/** An endpoint's parameters: a plain object, or one with rules across its fields (`withFieldRules`). */
export type ParamsSchema = z.AnyZodObject | z.ZodEffects<z.AnyZodObject, unknown, unknown>;

/**
 * Parameters with rules across fields, enforced by the schema itself, so the server's validation, the OpenAPI
 * (`anyOf` of the required sets) and the SDK's input type (`Input`, a union of the accepted shapes) all carry them.
 * A transform rather than `superRefine` so that `resolve` can hand handlers the normalized values in the same step.
 */
export function withFieldRules<Input>() {
  return <S extends z.AnyZodObject, Output = z.output<S>>(schema: S, rules: FieldRules<z.output<S>, Output>) => {
    const ruled = schema.transform((values: z.output<S>, ctx) => {
      const problems = rules.check(values);
      for (const { field, problem } of problems)
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: problem });
      if (problems.length) return z.NEVER;
      return rules.resolve ? rules.resolve(values) : (values as unknown as Output);
    });
    // No sets (only rules that refuse combinations): nothing is required, and OpenAPI has no empty `anyOf`.
    const described = rules.sets.length
      ? withOpenApi(ruled, { anyOf: rules.sets.map((required) => ({ required })) })
      : ruled;
    return described as unknown as z.ZodEffects<S, Output, Input>;
  };
}

/** For lookups by one of two names (contactId or phone, labelId or name): exactly one of them. */
export function exactlyOneOf<Values extends Record<string, unknown>>(
  first: keyof Values & string,
  second: keyof Values & string,
) {
  return {
    sets: [[first], [second]],
    check(values: Values): FieldProblem[] {
      const given = [first, second].filter((name) => values[name] !== undefined);
      if (given.length === 0) return [{ field: first, problem: `is required (or ${second})` }];
      if (given.length === 2) return [{ field: second, problem: `cannot be combined with ${first}: give one of them` }];
      return [];
    },
  } satisfies FieldRules<Values, Values>;
}

/** The object of a parameter schema, under its field rules if it has any. */
export function paramsObject(schema: z.ZodTypeAny): z.AnyZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  return schema instanceof z.ZodEffects ? paramsObject(schema.innerType()) : undefined;
}

/**
 * The same parameters with their object changed by `change` (stricter, coerced); field rules and OpenAPI metadata kept.
 */
export function mapParamsObject<P extends ParamsSchema>(
  params: P,
  change: (object: z.AnyZodObject) => z.AnyZodObject,
): P {
  const meta = (params as { metaOpenApi?: Record<string, unknown> }).metaOpenApi;
  const changed =
    params instanceof z.ZodEffects
      ? new z.ZodEffects({ ...params._def, schema: mapParamsObject(params._def.schema, change) })
      : change(params as z.AnyZodObject);
  return (meta ? withOpenApi(changed, meta) : changed) as P;
}
