import fc from 'fast-check';
import { z } from 'zod';

/** Strings that broke or could break something: PostgreSQL, JSON, logs, headers, parsers. */
const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u0007bell',
  'line\nbreak',
  '\r\n',
  '\t',
  '\u007f',
  '\ud800',
  'x\udfffy',
  '\u202e',
  '\ufeff',
  "' or 1=1 --",
  '"; drop table contacts; --',
  '%00',
  '%ZZ',
  '../../etc/passwd',
  '{{channelId}}',
  '<script>',
  '__proto__',
  ' ',
  '',
  'ü'.repeat(300),
  'a'.repeat(5000),
  '9'.repeat(400),
  '-0',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
];
const HOSTILE_NUMBERS = [
  0,
  -1,
  1,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  0.5,
  1e-300,
  Number.MAX_SAFE_INTEGER + 2,
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.uuid() },
);

/**
 * Times at and past the edges of what parses and what PostgreSQL stores: year 0 (PostgreSQL has none) and
 * 10000, instants pushed over an edge by an offset, leap seconds, impossible days and offsets, extended years.
 */
const TIME_EDGES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00+14:00',
  '0001-01-01T00:00:00-14:00',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999-14:00',
  '9999-12-31T23:59:59+14:00',
  '10000-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '2016-12-31T23:59:60Z',
  '1970-01-01T00:00:00Z',
  '1969-12-31T23:59:59.999Z',
  '2024-02-29T12:00:00Z',
  '2023-02-29T12:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01T00:00:00+99:99',
  '2026-01-01T00:00:00.123456789Z',
  '2026-01-01T00:00:00',
  '2026-01-01',
];
const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Well-formed times over the whole four-digit range (and year 10000), any day, second 60, the widest offsets. */
const isoTime = fc
  .tuple(
    fc.integer({ min: 0, max: 10_000 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 31 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 60 }),
    fc.constantFrom('Z', '+00:00', '+14:00', '-14:00', '+05:30', '-00:01'),
  )
  .map(
    ([y, mo, d, h, mi, s, offset]) =>
      `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${offset}`,
  );
/** Values for a time parameter: the edges, well-formed times across the whole range, and any text. */
export const timeArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...TIME_EDGES) },
  { weight: 3, arbitrary: isoTime },
  { weight: 1, arbitrary: text },
);
const isTimeSchema = (schema: z.ZodString) => schema._def.checks.some((check) => check.kind === 'datetime');

/** The parameters of an endpoint that take an ISO 8601 time (looking through optional, default and refinements). */
export function timeParams(schema: z.AnyZodObject): string[] {
  const stringOf = (field: z.ZodTypeAny): z.ZodTypeAny =>
    field instanceof z.ZodOptional || field instanceof z.ZodNullable
      ? stringOf(field.unwrap())
      : field instanceof z.ZodDefault
        ? stringOf(field.removeDefault())
        : field instanceof z.ZodEffects
          ? stringOf(field.innerType())
          : field;
  return Object.entries(schema.shape as z.ZodRawShape).flatMap(([name, field]) => {
    const inner = stringOf(field);
    return inner instanceof z.ZodString && isTimeSchema(inner) ? [name] : [];
  });
}

/** Any JSON value, for parameters of the wrong type. */
const wrongType = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(...HOSTILE_NUMBERS),
);

/**
 * Values for one parameter, derived by walking its zod schema: the right type with edge values (so the
 * schema's own limits are probed), now and then a value of the wrong type, absent or null where allowed.
 */
function arbitraryFor(schema: z.ZodTypeAny): fc.Arbitrary<unknown> {
  const right = rightTyped(schema);
  return fc.oneof({ weight: 6, arbitrary: right }, { weight: 1, arbitrary: wrongType });
}

function rightTyped(schema: z.ZodTypeAny): fc.Arbitrary<unknown> {
  if (schema instanceof z.ZodString) return isTimeSchema(schema) ? timeArbitrary : text;
  if (schema instanceof z.ZodNumber) {
    return fc.oneof(
      fc.integer({ min: -5, max: 500 }),
      fc.constantFrom(...HOSTILE_NUMBERS),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
  }
  if (schema instanceof z.ZodBoolean) return fc.boolean();
  if (schema instanceof z.ZodEnum)
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...(schema.options as string[])) },
      { weight: 1, arbitrary: text },
    );
  if (schema instanceof z.ZodLiteral) return fc.constant(schema.value);
  if (schema instanceof z.ZodOptional) return fc.option(rightTyped(schema.unwrap()), { nil: undefined, freq: 3 });
  if (schema instanceof z.ZodNullable) return fc.option(rightTyped(schema.unwrap()), { nil: null, freq: 5 });
  if (schema instanceof z.ZodDefault) return rightTyped(schema.removeDefault());
  if (schema instanceof z.ZodEffects) return rightTyped(schema.innerType());
  if (schema instanceof z.ZodArray) return fc.array(rightTyped(schema.element), { maxLength: 4 });
  if (schema instanceof z.ZodUnion) return fc.oneof(...(schema.options as z.ZodTypeAny[]).map(rightTyped));
  if (schema instanceof z.ZodObject) return paramsFor(schema, {});
  return fc.jsonValue({ maxDepth: 2 });
}

/** Keys no parameter set should carry: unknown names, typos, prototype pollution. */
const STRAY_KEYS = ['serach', 'extra', '__proto__', 'constructor', 'prototype', 'channelid', ''];

/**
 * A parameter set for an endpoint: each field either a value that works here (`hints`, e.g. the tenant's
 * channelId, so valid requests reach the database) or one derived from the schema; sometimes a stray key.
 */
export function paramsFor(
  schema: z.AnyZodObject,
  hints: Record<string, unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(
    Object.entries(schema.shape as z.ZodRawShape).map(([name, field]) => {
      const derived = arbitraryFor(field);
      const value =
        name in hints
          ? fc.oneof({ weight: 4, arbitrary: fc.constant(hints[name]) }, { weight: 1, arbitrary: derived })
          : derived;
      return [name, value];
    }),
  );
  const stray = fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...STRAY_KEYS), wrongType) },
  );
  return fc.tuple(fc.record(fields, { requiredKeys: [] }), stray).map(([params, extra]) => {
    const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
    // defineProperty: `__proto__` must be an own key of the sent JSON, not a prototype change here.
    if (extra)
      Object.defineProperty(clean, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
    return clean;
  });
}

/** One HTTP request, printed as-is when a property fails (after shrinking). */
export interface FuzzRequest {
  method: 'POST' | 'GET';
  /** The raw query string after `?` (GET), exactly as sent. */
  query?: string;
  contentType?: string;
  contentEncoding?: string;
  /** The raw body, exactly as sent. */
  body?: string;
}

const scalar = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
/** Percent-encodes like a browser, except that a lone surrogate goes out as the invalid UTF-8 it would be. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}

function queryOf(params: Record<string, unknown>, style: 'plain' | 'duplicate' | 'brackets' | 'raw'): string {
  const pairs = Object.entries(params).flatMap(([key, value]) =>
    Array.isArray(value) ? value.map((v) => [key, scalar(v)] as const) : [[key, scalar(value)] as const],
  );
  if (style === 'duplicate' && pairs[0]) pairs.push(pairs[0]);
  if (style === 'brackets' && pairs[0]) pairs[0] = [`${pairs[0][0]}[]`, pairs[0][1]];
  const encoded = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`);
  if (style === 'raw') encoded.push('search=%00', 'q=%ZZ', '%E0%A4%A=1');
  return encoded.join('&');
}

const MALFORMED_BODIES = [
  '{"a":',
  '[1,2,3]',
  '"text"',
  '42',
  'null',
  'true',
  '{"limit":1e999999}',
  '{"name":"\\ud800"}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
  '{"a":1,"a":2}',
  '\u0000',
  '',
];

/** A request for an endpoint: its parameters as JSON or a query string, or a body no parser should accept. */
export function requestFor(params: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<FuzzRequest> {
  const post = params.map((p): FuzzRequest => ({
    method: 'POST',
    contentType: 'application/json',
    body: JSON.stringify(p),
  }));
  const get = fc
    .tuple(
      params,
      fc.constantFrom('plain', 'plain', 'plain', 'duplicate', 'brackets', 'raw') as fc.Arbitrary<
        'plain' | 'duplicate' | 'brackets' | 'raw'
      >,
    )
    .map(([p, style]): FuzzRequest => ({ method: 'GET', query: queryOf(p, style) }));
  const malformed = fc.oneof(
    fc
      .constantFrom(...MALFORMED_BODIES)
      .map((body): FuzzRequest => ({ method: 'POST', contentType: 'application/json', body })),
    params.map((p): FuzzRequest => ({ method: 'POST', contentType: 'text/plain', body: JSON.stringify(p) })),
    params.map((p): FuzzRequest => ({
      method: 'POST',
      contentType: 'application/json',
      contentEncoding: 'gzip',
      body: JSON.stringify(p),
    })),
    params.map((p): FuzzRequest => ({ method: 'GET', contentType: 'application/json', body: JSON.stringify(p) })),
  );
  return fc.oneof({ weight: 4, arbitrary: post }, { weight: 4, arbitrary: get }, { weight: 2, arbitrary: malformed });
}
