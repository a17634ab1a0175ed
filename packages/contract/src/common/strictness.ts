import { z } from 'zod';
import { mapParamsObject, type ParamsSchema } from './field-rules.js';
import { withOpenApi } from './openapi-meta.js';
import { MULTI_LINE_PARAMS, MULTI_LINE_TEXT, SINGLE_LINE_TEXT } from './schemas.js';

type TextRule = typeof SINGLE_LINE_TEXT;

/** Rebuilds a schema with the text rule on every string inside it, keeping each part's OpenAPI metadata. */
function withTextRule(schema: z.ZodTypeAny, rule: TextRule): z.ZodTypeAny {
  const ruled = applyTextRule(schema, rule);
  const meta = (schema as { metaOpenApi?: Record<string, unknown> }).metaOpenApi;
  return meta && ruled !== schema ? withOpenApi(ruled, meta) : ruled;
}

/**
 * Through optional, nullable, defaults, effects, arrays, records (keys and values), objects and unions down to the
 * strings.
 */
function applyTextRule(schema: z.ZodTypeAny, rule: TextRule): z.ZodTypeAny {
  const def = schema._def as Record<string, unknown>;
  const rebuild = (changes: Record<string, unknown>) =>
    new (schema.constructor as new (def: unknown) => z.ZodTypeAny)({ ...def, ...changes });
  if (schema instanceof z.ZodString) return schema.regex(rule.pattern, rule.message);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return rebuild({ innerType: withTextRule(def.innerType as z.ZodTypeAny, rule) });
  }
  if (schema instanceof z.ZodEffects) return rebuild({ schema: withTextRule(def.schema as z.ZodTypeAny, rule) });
  if (schema instanceof z.ZodArray) return rebuild({ type: withTextRule(def.type as z.ZodTypeAny, rule) });
  if (schema instanceof z.ZodRecord) {
    return rebuild({
      keyType: withTextRule(def.keyType as z.ZodTypeAny, rule),
      valueType: withTextRule(def.valueType as z.ZodTypeAny, rule),
    });
  }
  if (schema instanceof z.ZodObject) {
    const shape = Object.entries(schema.shape as z.ZodRawShape).map(([key, field]) => [key, withTextRule(field, rule)]);
    return rebuild({ shape: () => Object.fromEntries(shape) });
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const options = (def.options as z.AnyZodObject[]).map((option) => withTextRule(option, rule));
    const union = z.discriminatedUnion(def.discriminator as string, options as [z.AnyZodObject, ...z.AnyZodObject[]]);
    return schema.description === undefined ? union : union.describe(schema.description);
  }
  if (schema instanceof z.ZodUnion) {
    return rebuild({ options: (def.options as z.ZodTypeAny[]).map((option) => withTextRule(option, rule)) });
  }
  return schema;
}

/**
 * Every endpoint's parameters, made strict in one place: an unknown parameter is refused (a typo such as
 * `serach` must not silently return the unfiltered list), and every string obeys the contract's text rules.
 * Same keys, output types, field rules and OpenAPI metadata (required sets); only stricter.
 */
export function strictParams<P extends ParamsSchema>(params: P): P {
  return mapParamsObject(params, (object) => {
    const shape = Object.fromEntries(
      Object.entries(object.shape as z.ZodRawShape).map(([name, field]) => [
        name,
        withTextRule(field, MULTI_LINE_PARAMS.has(name) ? MULTI_LINE_TEXT : SINGLE_LINE_TEXT),
      ]),
    );
    return z
      .object(shape)
      .strict()
      .describe(object.description ?? '');
  });
}
