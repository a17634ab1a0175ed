import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import { UnauthorizedError } from '../errors.js';
import { containsApiKey, hashesMatch, isWellFormedApiKey, displayPrefix } from '../modules/api-keys/api-key.crypto.js';
import type { Caller } from './context.js';

/** Parameter names that carry credentials in other APIs; refused here so keys never land in URLs or logs. */
const CREDENTIAL_PARAMS = new Set(['apikey', 'api_key', 'api-key', 'key', 'token', 'access_token', 'x-api-key']);
const HEADER_ONLY =
  'API keys are accepted only in the X-API-Key header (or Authorization: Bearer), never in the query string or body. Revoke a key that was sent there.';

function carriesKey(value: unknown, depth = 0): boolean {
  if (depth > 5 || value === null || value === undefined) return false;
  if (typeof value === 'string') return containsApiKey(value);
  if (Array.isArray(value)) return value.some((v) => carriesKey(v, depth + 1));
  if (typeof value === 'object') {
    return Object.entries(value).some(
      ([name, v]) => (depth === 0 && CREDENTIAL_PARAMS.has(name.toLowerCase())) || carriesKey(v, depth + 1),
    );
  }
  return false;
}

export function presentedKey(req: Request): string | undefined {
  const header = req.get('x-api-key');
  if (header !== undefined) return header.trim();
  const authorization = req.get('authorization');
  if (authorization === undefined) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  return match ? match[1]!.trim() : authorization.trim();
}

interface KeyRow {
  api_key_id: string;
  key_hash: string;
  revoked_at: Date | null;
  last_used_stale: boolean;
  channel_ids: string[];
  user_id: string;
  platform_id: string;
  name: string;
  email: string;
  platform_access: boolean;
  permissions: string[];
}

/** Resolves an API key to its caller, or throws 401. Lookup by the public prefix, then a constant-time hash compare. */
export async function authenticateKey(em: EntityManager, apiKey: string | undefined): Promise<Caller> {
  if (!apiKey) throw new UnauthorizedError('Missing API key. Send it in the X-API-Key header.');
  if (!isWellFormedApiKey(apiKey)) throw new UnauthorizedError('Malformed API key.');
  const [row] = await em.execute<KeyRow[]>(
    // One round trip resolves the key, its user and the channels that user may act on (every workspace request
    // needs them), and says whether last-used is due for a refresh.
    `select k.id as api_key_id, k.key_hash, k.revoked_at, u.id as user_id, u.platform_id, u.name, u.email,
            u.platform_access, u.permissions,
            (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as last_used_stale,
            array(select cu.channel_id::text from channel_users cu join channels c on c.id = cu.channel_id
                   where cu.user_id = u.id and c.platform_id = u.platform_id order by c.created_at, c.id) as channel_ids
       from api_keys k join users u on u.id = k.user_id
      where k.prefix = ?`,
    [displayPrefix(apiKey)],
  );
  if (!row || !hashesMatch(row.key_hash, apiKey) || row.revoked_at) {
    throw new UnauthorizedError('Invalid or revoked API key.');
  }
  // Last use is advisory: record it at most once a minute per key, without holding up the request.
  if (row.last_used_stale) {
    void em.execute('update api_keys set last_used_at = now() where id = ?', [row.api_key_id]).catch(() => undefined);
  }
  return {
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    platformId: row.platform_id,
    name: row.name,
    email: row.email,
    platformAccess: row.platform_access,
    permissions: row.permissions,
    channelIds: row.channel_ids,
  };
}

/** Express middleware for every API route: refuse keys outside headers, then authenticate the header key. */
export function authenticate(em: EntityManager) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      if (carriesKey(req.query) || (req.method !== 'GET' && carriesKey(req.body))) {
        throw new UnauthorizedError(HEADER_ONLY);
      }
      req.caller = await authenticateKey(em.fork(), presentedKey(req));
      next();
    } catch (error) {
      next(error);
    }
  };
}
