/** The files customers sent in a conversation (chat/media/get): a short-lived link on this server to each. */
import { z } from 'zod';
import { EXAMPLE_IDS, endpoint, named, okEnvelope, timestampSchema } from '../common/index.js';
import { msgidParam } from './messages.js';

export const mediaLinkSchema = named(
  'MediaLink',
  z.object({
    url: z
      .string()
      .describe(
        'A link on this server to the file, valid until `expiresAt` (5 minutes), needing no API key: open it or ' +
          'hand it to a browser; it streams the bytes from the provider',
      ),
    mimeType: z.string().describe('As the provider reports it, e.g. `image/jpeg`'),
    size: z.number().int().nullable().describe('Bytes, when the provider says'),
    expiresAt: timestampSchema.describe('When the link stops working (ISO 8601, UTC)'),
  }),
);
export type MediaLink = z.infer<typeof mediaLinkSchema>;

export const mediaContract = {
  get: endpoint({
    operation: 'workspace.chat.media.get',
    path: '/api/workspace/v1/chat/media/get',
    summary: 'Get a link to the file a customer sent',
    description:
      'For a customer’s image, document, audio, video or sticker (the `media.mediaId` of message.received and ' +
      'chat/messages/list): asks the provider about the file once and answers a link on this server, valid for 5 ' +
      'minutes, that needs no API key and streams the bytes (the provider’s own URL and the channel’s token never ' +
      'leave the server). An expired or altered link answers 404 `media_not_found`; ask again for a fresh one. A ' +
      'message without such a file (text, outbound, location, …): 404 `media_not_found`. A msgid outside the ' +
      'channels this key may use and one that does not exist both give 403. On a WhatsApp Cloud API channel Meta ' +
      'unreachable or failing gives 503 `provider_unavailable` with `Retry-After`, a refused token 502 ' +
      '`provider_unauthorized`, a file Meta no longer has (media ids expire after about 30 days) 400 ' +
      '`provider_rejected`. A sandbox channel has no provider behind it: its files are a 1×1 PNG placeholder.',
    params: z.object({ msgid: msgidParam }),
    response: okEnvelope(mediaLinkSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['media_not_found', 'provider_rejected', 'provider_unauthorized', 'provider_unavailable'],
    example: { msgid: EXAMPLE_IDS.photoMsgid },
    failureExamples: {
      noMedia: {
        summary: 'a message without a customer’s file',
        status: 404,
        error: 'media_not_found',
        message: 'Message wamid.DEMO0001 has no file a customer sent.',
        request: { msgid: 'wamid.DEMO0001' },
      },
    },
  }),
};
