import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { MESSAGING } from '../messages/index.js';
import { SEND_NOW } from '../sending/index.js';
import { createTemplate, deleteTemplate, updateTemplate } from './template-manage.service.js';
import { TEMPLATE_USES } from './template-uses.port.js';
import { listTemplates, sendTemplate, syncTemplates } from './template.service.js';

export function templatesRouter({ em, logger, services }: RouteDeps) {
  const messaging = services.get(MESSAGING);
  const sendNow = services.get(SEND_NOW);
  return {
    manage: implement<typeof contract.workspace.chat.templates.manage>(em, logger, async (params, ctx) => {
      const channel = await resolveChannel(ctx, params.channelId);
      if (params.action === 'delete') {
        const uses = services.get(TEMPLATE_USES);
        const data = await deleteTemplate({ ...ctx, uses }, messaging, channel.id, params);
        const message = `Template deleted; Meta refuses the name "${data.name}" for a new template for 30 days`;
        return { success: true, data, message };
      }
      const data =
        params.action === 'create'
          ? await createTemplate(ctx, messaging, channel.id, params)
          : await updateTemplate(ctx, messaging, channel.id, params);
      const message = data.status === 'approved' ? 'Template approved' : 'Template submitted for review';
      return { success: true, data, message };
    }),
    list: implement<typeof contract.workspace.chat.templates.list>(em, logger, async ({ channelId, status }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const templates = await listTemplates(ctx, channel.id, status);
      return { success: true, data: templates, total: templates.length };
    }),
    send: implement<typeof contract.workspace.chat.templates.send>(em, logger, async ({ channelId, ...send }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const data = await sendTemplate({ ...ctx, sendNow }, channel.id, send);
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
