import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { MESSAGING } from '../messages/index.js';
import { listApprovedTemplates, sendTemplate, syncTemplates } from './template.service.js';

export function templatesRouter({ em, logger, services }: RouteDeps) {
  const messaging = services.get(MESSAGING);
  return {
    list: implement<typeof contract.workspace.chat.templates.list>(em, logger, async ({ channelId }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const templates = await listApprovedTemplates(ctx, channel.id);
      return { success: true, data: templates, total: templates.length };
    }),
    send: implement<typeof contract.workspace.chat.templates.send>(em, logger, async ({ channelId, ...send }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const data = await sendTemplate(ctx, messaging, channel.id, send);
      const message = data.status === 'scheduled' ? 'Template message scheduled' : 'Template message queued';
      return { success: true, data, message };
    }),
    sync: implement<typeof contract.workspace.chat.templates.sync>(em, logger, async ({ channelId }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const { provider, ...data } = await syncTemplates(ctx, messaging, channel.id);
      const message =
        provider === 'sandbox'
          ? 'Sandbox channel: templates come from the seed file; nothing to sync'
          : 'Templates synced from WhatsApp';
      return { success: true, data, message };
    }),
  };
}
