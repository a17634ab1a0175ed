import type { SwitchboardClient } from '@switchboard/client';
import { contract } from '@switchboard/contract';
import type { Tenant } from '../helpers/fixtures.js';

/** One workspace endpoint as the table-driven suites (channel rules, tenants, GET = POST, rate classes) see it. */
export interface WorkspaceEndpoint {
  name: string;
  path: string;
  /** The class this suite expects, written out rather than read from the contract it checks. */
  rateClass: 'api_read' | 'api_write';
  /** Whether the endpoint takes channelId and follows the channel rules (docs/api.md "Channels"). */
  channelScoped: boolean;
  /** Parameters that succeed for `tenant`'s main channel (channelId left out). */
  params(tenant: Tenant): Record<string, unknown>;
  call(client: SwitchboardClient, params: Record<string, unknown>): Promise<unknown>;
}

type Call = (client: SwitchboardClient, params: Record<string, unknown>) => Promise<unknown>;

const endpoint = (
  name: string,
  route: { post: { path: string } },
  rateClass: WorkspaceEndpoint['rateClass'],
  call: Call,
  params: WorkspaceEndpoint['params'] = () => ({}),
  channelScoped = true,
): WorkspaceEndpoint => ({ name, path: route.post.path, rateClass, channelScoped, params, call });

const ws = contract.workspace;

/** Every repeatable workspace endpoint (channels/list has its own foundation suites; the deletes have their own). */
export const WORKSPACE_ENDPOINTS: WorkspaceEndpoint[] = [
  endpoint(
    'contacts/list',
    ws.contacts.list,
    'api_read',
    (c, p) => c.workspace.contacts.list(p),
    () => ({ page: 1, limit: 2 }),
  ),
  endpoint(
    'contacts/get',
    ws.contacts.get,
    'api_read',
    (c, p) => c.workspace.contacts.get(p as { phone: string }),
    () => ({ phone: '15550000001' }),
  ),
  // Repeatable: an update of a seeded contact. (The deletes are not: contacts-delete and labels-delete cover them.)
  endpoint(
    'contacts/manage',
    ws.contacts.manage,
    'api_write',
    (c, p) => c.workspace.contacts.manage(p as { phone: string }),
    () => ({
      phone: '+1 555 000 0002',
      status: 'active',
    }),
  ),
  endpoint('labels/list', ws.labels.list, 'api_read', (c, p) => c.workspace.labels.list(p)),
  endpoint(
    'labels/manage',
    ws.labels.manage,
    'api_write',
    (c, p) => c.workspace.labels.manage(p as { name: string }),
    () => ({
      name: 'vip',
      color: '#123456',
    }),
  ),
  endpoint('custom-fields/list', ws.customFields.list, 'api_read', (c, p) => c.workspace.customFields.list(p)),
  endpoint('automations/list', ws.automations.list, 'api_read', (c, p) => c.workspace.automations.list(p)),
  endpoint('chat/templates/list', ws.chat.templates.list, 'api_read', (c, p) => c.workspace.chat.templates.list(p)),
  endpoint(
    'chat/templates/send',
    ws.chat.templates.send,
    'api_write',
    (c, p) => c.workspace.chat.templates.send(p as { to: string; templateName: string }),
    () => ({ to: '+1 555 000 0001', templateName: 'order_update', variables: 'Ada,A-1001' }),
  ),
  endpoint('chat/templates/sync', ws.chat.templates.sync, 'api_write', (c, p) => c.workspace.chat.templates.sync(p)),
  endpoint(
    'chat/message/status',
    ws.chat.message.status,
    'api_read',
    (c, p) => c.workspace.chat.message.status(p as { msgid: string }),
    (tenant) => ({ msgid: tenant.msgid }),
    false,
  ),
];

export const CHANNEL_SCOPED = WORKSPACE_ENDPOINTS.filter((e) => e.channelScoped);
