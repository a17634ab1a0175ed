import { isUuid } from '@switchboard/contract';
import { Router, type Request, type Response } from 'express';
import { AppError } from '../kit/errors.js';
import {
  connectWhatsAppChannelAs,
  listChannelConnections,
  WHATSAPP,
  whatsAppCredentialsSchema,
  type ChannelConnection,
} from '../modules/whatsapp/index.js';
import { asyncRoute, callerContext, messageReply, refusal, signedIn, type PortalContext } from './portal-context.js';
import { CHANNELS, channelsPage, connectPage } from './views/channels.js';

const BACK = { href: CHANNELS, label: 'Back to channels' };

type OwnChannel = (req: Request, res: Response) => Promise<ChannelConnection | undefined>;

function connectChannel(ctx: PortalContext, ownChannel: OwnChannel) {
  return asyncRoute(async (req, res) => {
    const channel = await ownChannel(req, res);
    if (!channel) return;
    const { viewer, user } = signedIn(req);
    const typed = {
      phoneNumberId: String(req.body?.phoneNumberId ?? ''),
      wabaId: String(req.body?.wabaId ?? ''),
      appId: String(req.body?.appId ?? ''),
    };
    const credentials = whatsAppCredentialsSchema.safeParse(req.body ?? {});
    if (!credentials.success) {
      // The first problem of each field: an empty one is "required", not also "not printable".
      const errors = Object.fromEntries(
        credentials.error.issues.reverse().map((issue) => [String(issue.path[0]), `This ${issue.message}.`]),
      );
      return res.status(400).send(connectPage(ctx.assets, viewer, channel, { ...typed, errors }));
    }
    try {
      const connected = await connectWhatsAppChannelAs(
        callerContext(req, ctx),
        ctx.services.get(WHATSAPP),
        channel.channelId,
        credentials.data,
      );
      req.log?.info(
        {
          userId: user.id,
          channelId: channel.channelId,
          phoneNumberId: connected.phoneNumberId,
          templates: connected.templates,
        },
        'portal WhatsApp channel connected',
      );
      res.redirect(303, `${CHANNELS}?connected=${encodeURIComponent(channel.channelId)}`);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      req.log?.warn(
        { userId: user.id, channelId: channel.channelId, code: error.code },
        'portal WhatsApp connection refused',
      );
      res
        .status(error.status)
        .send(connectPage(ctx.assets, viewer, channel, { ...typed, failure: `Nothing was stored. ${error.message}` }));
    }
  });
}

/**
 * The Channels page: the channels the signed-in user is authorized for (those channels/list gives their key),
 * connecting one to the WhatsApp Cloud API or rotating its credentials, and what to paste into Meta (callback URL,
 * verify token). A channel page runs the workspace endpoints' channel rule through the whatsapp module's services
 * (another channel is 403, as `channelId` would be). Behind sign-in and `settings:api` like every portal page; the
 * access token and app secret are never shown, logged or sent back.
 */
export function channelRoutes(ctx: PortalContext): Router {
  const router = Router();
  const whatsApp = () => ctx.services.get(WHATSAPP);

  const notFound = (req: Request, res: Response) =>
    messageReply(req, res, ctx, 404, {
      title: 'Channel not found',
      message: 'There is no channel at this address.',
      link: BACK,
    });

  /** The channel of the path as the user may see it; otherwise its refusal (403) or a 404 is answered. */
  async function ownChannel(req: Request, res: Response): Promise<ChannelConnection | undefined> {
    const id = req.params.channelId!;
    try {
      const [channel] = isUuid(id) ? await listChannelConnections(callerContext(req, ctx), whatsApp(), id) : [];
      if (!channel) notFound(req, res);
      return channel;
    } catch (error) {
      if (!refusal(req, res, ctx, error, BACK)) throw error;
      return undefined;
    }
  }

  router.get(
    '/channels',
    asyncRoute(async (req, res) => {
      const channels = await listChannelConnections(callerContext(req, ctx), whatsApp());
      const connected = channels.find((channel) => channel.channelId === req.query.connected && channel.whatsApp);
      const notice =
        connected?.whatsApp &&
        `${connected.name} is connected to ${connected.whatsApp.displayPhoneNumber} ` +
          `(${connected.whatsApp.verifiedName}); ${connected.whatsApp.templates.synced} templates synced. Give Meta ` +
          `its callback URL and verify token below.`;
      res.send(channelsPage(ctx.assets, signedIn(req).viewer, channels, notice || undefined));
    }),
  );

  router.get(
    '/channels/:channelId/connect',
    asyncRoute(async (req, res) => {
      const channel = await ownChannel(req, res);
      if (channel) res.send(connectPage(ctx.assets, signedIn(req).viewer, channel));
    }),
  );

  router.post('/channels/:channelId/connect', connectChannel(ctx, ownChannel));

  return router;
}
