import { z } from 'zod';
import { mapParamsObject, type ParamsSchema } from './field-rules.js';

type FieldKind = 'number' | 'boolean' | 'object' | 'objectArray' | 'array' | 'other';

function kindOf(schema: z.ZodTypeAny): FieldKind {
  if (schema instanceof z.ZodNumber) return 'number';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  if (schema instanceof z.ZodRecord || schema instanceof z.ZodObject || schema instanceof z.ZodDiscriminatedUnion)
    return 'object';
  if (schema instanceof z.ZodArray) return kindOf(schema.element) === 'object' ? 'objectArray' : 'array';
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return kindOf(schema.unwrap());
  if (schema instanceof z.ZodDefault) return kindOf(schema.removeDefault());
  if (schema instanceof z.ZodEffects) return kindOf(schema.innerType());
  return 'other';
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** JSON text of an object parameter, or the text itself when it is not JSON (the schema then refuses it). */
function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A list of objects: one JSON array, or each item's JSON text given as a repeated key (or once, a list of one). */
function objectList(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? parseJson(item) : item));
  if (typeof value !== 'string') return value;
  const parsed = parseJson(value);
  return Array.isArray(parsed) ? parsed : [parsed];
}

/**
 * Query strings carry text only: turn `"20"` into 20, `"true"` into true, an object parameter's JSON text
 * (`customFields={"Age":36}`) into the object, a list of objects' JSON text (or each item's, repeated) into the
 * list, and a list parameter given once (`labels=vip`) into a list of one (given several times, it arrives as a list
 * already); leave anything else for the schema to judge.
 */
export function coerceQueryValue(kind: FieldKind, value: unknown): unknown {
  if (kind === 'objectArray') return objectList(value);
  if (typeof value !== 'string') return value;
  if (kind === 'number') return NUMERIC.test(value.trim()) ? Number(value) : value;
  if (kind === 'object') return parseJson(value);
  if (kind === 'array') return [value];
  if (kind === 'boolean') {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
  }
  return value;
}

/**
 * The GET twin of a POST body schema: the same fields, rules and messages, with numbers, booleans, objects and
 * lists coerced from their query-string text. The output type is unchanged, so callers see one parameter type.
 */
export function toQuerySchema<P extends ParamsSchema>(params: P): P {
  return mapParamsObject(params, (object) => {
    const shape = Object.fromEntries(
      Object.entries(object.shape as z.ZodRawShape).map(([key, field]) => {
        const kind = kindOf(field);
        return [key, kind === 'other' ? field : z.preprocess((v) => coerceQueryValue(kind, v), field)];
      }),
    );
    // Same keys, output types and strictness; only the accepted input widens to strings.
    const query = object._def.unknownKeys === 'strict' ? z.object(shape).strict() : z.object(shape);
    return query.describe(object.description ?? '');
  });
}
