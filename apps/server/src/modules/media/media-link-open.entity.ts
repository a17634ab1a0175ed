import { defineEntity, p } from '@mikro-orm/core';
import type { MediaFile } from '../messages/index.js';

/** How often one media link was opened (at most MEDIA_LINK_MAX_OPENS), shared by every instance. */
const MediaLinkOpenSchema = defineEntity({
  name: 'MediaLinkOpen',
  tableName: 'media_link_opens',
  properties: {
    /** The link's signature: unique per link, and not the link itself. */
    link: p.string().length(64).primary(),
    opens: p.integer().default(0),
    /** The file as chat/media/get found it (with the provider's short-lived location): opens look nothing up. */
    file: p.json<MediaFile>().nullable(),
    /** When the link expires: its row is of no use after that. */
    expiresAt: p.datetime(),
  },
  indexes: [{ name: 'media_link_opens_expires_at_index', properties: ['expiresAt'] }],
});
export class MediaLinkOpen extends MediaLinkOpenSchema.class {}
MediaLinkOpenSchema.setClass(MediaLinkOpen);
