import { z } from 'zod';

export const idSchema = z.string().describe('Identifier (UUID)');
export const timestampSchema = z.string().describe('ISO 8601 timestamp, UTC');

/** Optional on every workspace endpoint: chosen automatically when the key has exactly one channel. */
export const channelIdParam = z
  .string()
  .min(1, 'must not be empty')
  .optional()
  .describe('Channel to act on; may be omitted when the key is authorized for exactly one channel');

export const channelScoped = { channelId: channelIdParam };
