import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { MediaLinkOpen } from './media-link-open.entity.js';
import { mediaLinkRetention } from './media-link-retention.js';
import { mediaLinksService } from './media-links.js';
import { mediaLinkRoutes, mediaRouter } from './media.router.js';

/**
 * The files customers sent: chat/media/get answers a signed, short-lived `/media/<token>` link on this server, and
 * opening it streams the bytes from the channel's provider (each link opened once, remembered until it expires).
 */
export const mediaModule = defineModule({
  name: 'media',
  entities: [MediaLinkOpen],
  routes: [routes(contract.workspace.chat.media, mediaRouter)],
  publicRoutes: mediaLinkRoutes,
  services: [mediaLinksService],
  jobs: () => ({ targets: [], workers: [mediaLinkRetention] }),
});
