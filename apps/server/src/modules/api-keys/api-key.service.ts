import { NotFoundError } from '../../kit/errors.js';
import { User } from '../users/index.js';
import { generateApiKey } from './api-key-crypto.js';
import { ApiKey } from './api-key.entity.js';
import type { ServiceContext } from '../../kit/context.js';

export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  /** The whole key: returned once, at creation, and never stored. */
  apiKey: string;
  createdAt: string;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export async function createApiKey({ em }: ServiceContext, userId: string, name: string): Promise<CreatedApiKey> {
  const generated = generateApiKey();
  const key = em.create(ApiKey, {
    user: em.getReference(User, userId),
    name,
    prefix: generated.prefix,
    keyHash: generated.keyHash,
  });
  await em.flush();
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    apiKey: generated.apiKey,
    createdAt: key.createdAt.toISOString(),
  };
}

export async function listApiKeys({ em }: ServiceContext, userId: string): Promise<ApiKeySummary[]> {
  const keys = await em.find(ApiKey, { user: userId }, { orderBy: { createdAt: 'desc' } });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  }));
}

/** Revokes a key by its public prefix; `userId` limits it to that user's keys. Takes effect on the next request. */
export async function revokeApiKey({ em }: ServiceContext, prefix: string, userId?: string): Promise<ApiKeySummary> {
  const key = await em.findOne(ApiKey, userId ? { prefix, user: userId } : { prefix });
  if (!key) throw new NotFoundError('not_found', `No API key with prefix ${prefix}.`);
  key.revokedAt ??= new Date();
  await em.flush();
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt.toISOString(),
  };
}
