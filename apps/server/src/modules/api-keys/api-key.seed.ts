import { z } from 'zod';
import { seedExtension } from '../../kit/seed.js';
import type { User } from '../users/index.js';
import { generateApiKey } from './api-key-crypto.js';
import { ApiKey } from './api-key.entity.js';

/** `users[].apiKey: true` gives the user a key; the seed result shows it (the only time it is ever shown). */
export const userApiKeySeed = seedExtension({
  extends: 'users',
  fields: { apiKey: z.boolean().default(false) },
  async load(ctx, user: User, { apiKey }) {
    if (!apiKey) return { apiKey: null };
    const generated = generateApiKey();
    ctx.em.create(ApiKey, { user, name: 'seed', prefix: generated.prefix, keyHash: generated.keyHash });
    return { apiKey: generated.apiKey };
  },
});
