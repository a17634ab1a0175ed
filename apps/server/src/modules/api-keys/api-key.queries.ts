import type { EntityManager } from '@mikro-orm/postgresql';
import { LAST_USE_INTERVAL_MS, type ApiKeyLookup } from '../../kit/auth.js';
import type { Caller, ServiceContext } from '../../kit/context.js';
import { containsApiKey, displayPrefix, hashApiKey, hashesMatch, isWellFormedApiKey } from './api-key-crypto.js';
import { ApiKey } from './api-key.entity.js';

/**
 * The channel this module's triggers notify when what findCaller reads changes (api-key.sql.ts): the caller cache
 * listens on it.
 */
export const CALLER_CHANGES_CHANNEL = 'api_callers_changed';

interface CallerRow {
  channel_ids: string[];
  user_id: string;
  platform_id: string;
  platform_active: boolean;
  name: string;
  email: string;
  platform_access: boolean;
  permissions: string[];
}

interface KeyRow extends CallerRow {
  api_key_id: string;
  key_hash: string;
  revoked_at: Date | null;
  last_used_stale: boolean;
}

/** What a caller is, for `u` (users) joined with `p` (platforms): one definition for keys and portal users. */
const CALLER_COLUMNS = `u.id as user_id, u.platform_id, u.name, u.email, u.platform_access, u.permissions,
            p.is_active as platform_active,
            array(select cu.channel_id::text from channel_users cu join channels c on c.id = cu.channel_id
                   where cu.user_id = u.id and c.platform_id = u.platform_id
                   order by c.created_at, c.id) as channel_ids`;

const callerOf = (row: CallerRow): Omit<Caller, 'apiKeyId'> => ({
  userId: row.user_id,
  platformId: row.platform_id,
  platformActive: row.platform_active,
  name: row.name,
  email: row.email,
  platformAccess: row.platform_access,
  permissions: row.permissions,
  channelIds: row.channel_ids,
});

/**
 * Last use is advisory: written at most once per LAST_USE_INTERVAL_MS per key (the condition keeps several
 * instances from writing it again), without holding up the request, for any number of keys in one statement (the
 * caller cache gathers those of a moment). The caller cache's invalidation trigger ignores this column, so recording
 * a use never evicts anything.
 */
function recordUses(em: EntityManager, apiKeyIds: readonly string[]): void {
  const now = new Date();
  const due = new Date(now.getTime() - LAST_USE_INTERVAL_MS);
  void em
    .nativeUpdate(
      ApiKey,
      { id: { $in: [...apiKeyIds] }, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: due } }] },
      { lastUsedAt: now },
    )
    .catch(() => undefined);
}

/**
 * The lookup behind every API request the caller cache cannot answer: by the key's public prefix, then a
 * constant-time hash compare. Hand-written SQL on purpose: one round trip resolves the key, its user and the
 * channels that user may act on (every workspace request needs them) and says whether last-used is due for a
 * refresh. Through the ORM it takes two round trips (the key with its user, then the channel pivot), which measured
 * several times slower (docs/benchmarks.md, "Figures behind code choices").
 * What it reads is what the `api_callers_changed` triggers watch (api-key.sql.ts): a new column read here needs its
 * trigger there.
 */
async function findCaller(em: EntityManager, apiKey: string) {
  const [row] = await em.execute<KeyRow[]>(
    `select k.id as api_key_id, k.key_hash, k.revoked_at,
            (k.last_used_at is null or k.last_used_at < now() - ? * interval '1 millisecond') as last_used_stale,
            ${CALLER_COLUMNS}
       from api_keys k join users u on u.id = k.user_id join platforms p on p.id = u.platform_id
      where k.prefix = ?`,
    [LAST_USE_INTERVAL_MS, displayPrefix(apiKey)],
  );
  if (!row || !hashesMatch(row.key_hash, apiKey) || row.revoked_at) return null;
  return { ...callerOf(row), apiKeyId: row.api_key_id, lastUseDue: row.last_used_stale };
}

/**
 * The caller a signed-in portal user acts as: the same columns as an API key's caller, so the portal applies the
 * API's access rules to the same facts. Undefined when the user no longer exists.
 */
export async function findUserCaller({ em }: ServiceContext, userId: string): Promise<Caller | undefined> {
  const [row] = await em.execute<CallerRow[]>(
    `select ${CALLER_COLUMNS} from users u join platforms p on p.id = u.platform_id where u.id = ?`,
    [userId],
  );
  return row && callerOf(row);
}

/** The port the HTTP auth middleware authenticates through. */
export const apiKeyLookup: ApiKeyLookup = {
  containsKey: containsApiKey,
  isWellFormed: isWellFormedApiKey,
  hash: hashApiKey,
  findCaller,
  recordUses,
};
