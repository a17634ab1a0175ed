import { z } from 'zod';

export const paginationSchema = z.object({
  page: z.number().int().describe('Current page, from 1'),
  limit: z.number().int().describe('Page size'),
  total: z.number().int().describe('Number of items across all pages'),
  pages: z.number().int().describe('Number of pages'),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** `{success: true, data, message?}` */
export const okEnvelope = <D extends z.ZodTypeAny>(data: D) =>
  z.object({
    success: z.literal(true),
    data,
    message: z.string().optional(),
  });

/** Non-paginated lists carry `total`. */
export const listEnvelope = <I extends z.ZodTypeAny>(item: I) =>
  z.object({
    success: z.literal(true),
    data: z.array(item),
    message: z.string().optional(),
    total: z.number().int(),
  });

/** Paginated lists carry `pagination`. */
export const pageEnvelope = <I extends z.ZodTypeAny>(item: I) =>
  z.object({
    success: z.literal(true),
    data: z.array(item),
    message: z.string().optional(),
    pagination: paginationSchema,
  });
