import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/channel.scope.js';
import { listContacts } from './contact.service.js';

export function contactsRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.contacts.list>(em, logger, async ({ channelId, ...query }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const { data, pagination } = await listContacts(ctx, channel.id, query);
      return { success: true, data, pagination };
    }),
  };
}
