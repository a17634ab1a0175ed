import { randomBytes } from 'node:crypto';
import { publicBaseUrl } from '../../config.js';
import { provide, serviceKey } from '../../kit/services.js';

/** What media links are made with: the signing key and the public base URL they start with. */
export interface MediaLinks {
  key: Buffer;
  /** `key`, then the keys SECRETS_KEY_PREVIOUS derives: what a link may have been signed with. */
  verifyKeys: Buffer[];
  /** PUBLIC_URL (or the local address); a link is `${publicUrl}/media/<token>`. */
  publicUrl: string;
}

export const MEDIA_LINKS = serviceKey<MediaLinks>('media-links');

/**
 * The signing key comes from the SECRETS_KEY box (HKDF, its own purpose), so every instance with the same
 * SECRETS_KEY accepts the others' links. Without a box (DATABASE_URL and no SECRETS_KEY, no WhatsApp channel
 * possible) a random key per process still serves the sandbox; its links then open only on the instance that made
 * them.
 */
export const mediaLinksService = provide({
  key: MEDIA_LINKS,
  start: ({ config, secrets }): MediaLinks => {
    const keys = secrets?.deriveKeys('media links') ?? [randomBytes(32)];
    return { key: keys[0]!, verifyKeys: keys, publicUrl: publicBaseUrl(config) };
  },
});
