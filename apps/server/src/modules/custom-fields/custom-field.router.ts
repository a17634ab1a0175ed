import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { listCustomFields } from './custom-field.service.js';

export function customFieldsRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.customFields.list>(em, logger, async ({ channelId }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const fields = await listCustomFields(ctx, channel.id);
      return { success: true, data: fields, total: fields.length };
    }),
  };
}
