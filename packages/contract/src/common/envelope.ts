import { z } from 'zod';
import { named } from './openapi-meta.js';

export const paginationSchema = named(
  'Pagination',
  z.object({
    page: z.number().int().describe('Current page, from 1'),
    limit: z.number().int().describe('Page size'),
    total: z.number().int().describe('Number of items across all pages'),
    pages: z.number().int().describe('Number of pages'),
  }),
);
export type Pagination = z.infer<typeof paginationSchema>;

/** The component name of a `named` schema: envelopes are named after what they carry (`Contact` → `ContactPage`). */
function nameOf(schema: z.ZodTypeAny): string {
  const title = (schema as { metaOpenApi?: { title?: unknown } }).metaOpenApi?.title;
  if (typeof title !== 'string') throw new Error('An envelope’s data must be a named() schema');
  return title;
}

/** `{success: true, data, message?}` */
export const okEnvelope = <D extends z.ZodTypeAny>(data: D) =>
  named(
    `${nameOf(data)}Response`,
    z.object({
      success: z.literal(true),
      data,
      message: z.string().optional(),
    }),
  );

/** Non-paginated lists carry `total`. */
export const listEnvelope = <I extends z.ZodTypeAny>(item: I) =>
  named(
    `${nameOf(item)}List`,
    z.object({
      success: z.literal(true),
      data: z.array(item),
      message: z.string().optional(),
      total: z.number().int(),
    }),
  );

/** Paginated lists carry `pagination`. */
export const pageEnvelope = <I extends z.ZodTypeAny>(item: I) =>
  named(
    `${nameOf(item)}Page`,
    z.object({
      success: z.literal(true),
      data: z.array(item),
      message: z.string().optional(),
      pagination: paginationSchema,
    }),
  );

/** A list the SPEC gives a `total` that became paginated: `pagination`, and `total` as before (all matching items). */
export const countedPageEnvelope = <I extends z.ZodTypeAny>(item: I) =>
  named(
    `${nameOf(item)}CountedPage`,
    z.object({
      success: z.literal(true),
      data: z.array(item),
      message: z.string().optional(),
      pagination: paginationSchema,
      total: z.number().int().describe('Every item matching the filter, on all pages (pagination.total)'),
    }),
  );
