import { raw, type EntityManager } from '@mikro-orm/postgresql';
import type { MediaLink } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { AppError, BadRequestError, NotFoundError } from '../../kit/errors.js';
import {
  findAccessibleMessage,
  Message,
  type MediaContent,
  type MessagingProvider,
  type MessagingProviders,
} from '../messages/index.js';
import { MediaLinkOpen } from './media-link-open.entity.js';
import { MEDIA_LINK_MAX_OPENS, mediaLinkExpiry, signMediaLink, verifyMediaLink } from './media-link.js';
import type { MediaLinks } from './media-links.js';

export interface MediaDeps {
  providers: MessagingProviders;
  links: MediaLinks;
  /** The clock links are signed and checked against. */
  now: () => Date;
}

/** A link's row key: its signature, unique per link (message, expiry, key) and never the whole token. */
const linkOf = (token: string) => token.split('.')[2]!;

/** An expired, altered or foreign link, and one whose message is gone since, all look the same. */
const linkNotFound = () =>
  new NotFoundError('media_not_found', 'This media link is unknown or has expired: ask chat/media/get for a new one.');

function providerOf(providers: MessagingProviders, name: string): MessagingProvider {
  const provider = providers.get(name);
  if (!provider)
    throw new AppError(503, 'service_unavailable', `This channel's messaging provider "${name}" is not configured.`);
  return provider;
}

/**
 * chat/media/get: the message's file described by its provider (one call, so a provider outage answers here) and a
 * link to it. Only a customer's file has a provider media id; outbound media was sent from a link the caller has.
 */
export async function getMessageMedia(ctx: CallerContext, deps: MediaDeps, msgid: string): Promise<MediaLink> {
  const message = await findAccessibleMessage(ctx, msgid);
  const mediaId = message.media?.mediaId;
  if (!mediaId) throw new NotFoundError('media_not_found', `Message ${msgid} has no file a customer sent.`);
  const file = await providerOf(deps.providers, message.provider).describeMedia(ctx.em, message.channel.id, mediaId);
  const { token, expiresAt } = signMediaLink(deps.links.key, message.id, deps.now());
  // Kept with the link for its life: opening it looks nothing up.
  await ctx.em
    .createQueryBuilder(MediaLinkOpen)
    .insert({ link: linkOf(token), opens: 0, file, expiresAt })
    .onConflict('link')
    .ignore()
    .execute('run');
  return {
    url: `${deps.links.publicUrl}/media/${token}`,
    mimeType: file.mimeType,
    size: file.size,
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * Counts one open of the link (its signature names it), across instances: false once it was opened
 * MEDIA_LINK_MAX_OPENS times. The first open inserts the row; a parallel first open finds it and counts again.
 */
async function countOpen(em: EntityManager, token: string): Promise<boolean> {
  const link = linkOf(token);
  const more = () =>
    em.nativeUpdate(MediaLinkOpen, { link, opens: { $lt: MEDIA_LINK_MAX_OPENS } }, { opens: raw('opens + 1') });
  if ((await more()) === 1) return true;
  const { affectedRows } = await em
    .createQueryBuilder(MediaLinkOpen)
    .insert({ link, opens: 1, expiresAt: mediaLinkExpiry(token) })
    .onConflict('link')
    .ignore()
    .execute('run');
  return affectedRows === 1 || (await more()) === 1;
}

/** A media link being opened: the file's bytes from its provider, with the document's filename when it has one. */
export async function openMediaLink(
  em: EntityManager,
  deps: MediaDeps,
  token: string,
): Promise<MediaContent & { filename?: string }> {
  const messageId = verifyMediaLink(deps.links.verifyKeys, token, deps.now());
  if (!messageId) throw linkNotFound();
  if (!(await countOpen(em, token)))
    throw new BadRequestError(
      'invalid_request',
      `This media link was opened ${MEDIA_LINK_MAX_OPENS} times, the most one link allows: ask chat/media/get for a ` +
        'new one.',
    );
  const message = await em.findOne(Message, { id: messageId }, { fields: ['channel', 'provider', 'media'] });
  const media = message?.media;
  if (!message || !media?.mediaId) throw linkNotFound();
  const known = await em.findOne(MediaLinkOpen, { link: linkOf(token) }, { fields: ['file'] });
  const content = await providerOf(deps.providers, message.provider).openMedia(
    em,
    message.channel.id,
    media.mediaId,
    known?.file ?? undefined,
  );
  return { ...content, ...(media.filename ? { filename: media.filename } : {}) };
}
