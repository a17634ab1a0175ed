import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { deleteContact, getContact, manageContact } from './contact-manage.service.js';
import { listContacts } from './contact.service.js';

export function contactsRouter({ em, logger, jobs }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.contacts.list>(em, logger, async ({ channelId, ...query }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const { data, pagination } = await listContacts(ctx, channel.id, query);
      return { success: true, data, pagination };
    }),
    manage: implement<typeof contract.workspace.contacts.manage>(em, logger, async (params, ctx) => {
      const channel = await resolveChannel(ctx, params.channelId);
      const { contact, created } = await manageContact(ctx, jobs, channel.id, params);
      return {
        success: true,
        data: contact,
        message: created ? 'Contact created successfully' : 'Contact updated successfully',
      };
    }),
    get: implement<typeof contract.workspace.contacts.get>(em, logger, async (params, ctx) => {
      const channel = await resolveChannel(ctx, params.channelId);
      return { success: true, data: await getContact(ctx, channel, params) };
    }),
    delete: implement<typeof contract.workspace.contacts.delete>(em, logger, async ({ channelId, contactId }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      return {
        success: true,
        data: await deleteContact(ctx, channel, contactId),
        message: 'Contact deleted successfully',
      };
    }),
  };
}
