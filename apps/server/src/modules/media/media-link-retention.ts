import { retentionWorker } from '../../kit/retention.js';
import { MediaLinkOpen } from './media-link-open.entity.js';

/** A media link's open count is of no use once the link has expired: every chat/media/get would leave one behind. */
export const mediaLinkRetention = retentionWorker<MediaLinkOpen>({
  name: 'media.link-retention',
  entity: MediaLinkOpen,
  days: 0,
  expired: (now) => ({ expiresAt: { $lt: now } }),
  message: 'deleted the open counts of expired media links',
});
