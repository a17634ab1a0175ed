// An integrator's first day (issue #43), held at the type level: compiled by `pnpm typecheck` (tests/) and, in
// package.test.ts, against the packed tarball beside checks.ts. Each `@ts-expect-error` line is a call the server
// refuses: if it ever compiles, tsc fails on the unused directive.
import {
  type Broadcast,
  type Me,
  type StreamedEvent,
  type SwitchboardClient,
  type TemplatesSendResponse,
} from '@switchboard/client';

/** Who am I, and `me` wherever a user id goes. */
export async function whoAmI(sb: SwitchboardClient, contactId: string): Promise<string> {
  const { data } = await sb.workspace.me();
  const me: Me = data;
  const role: 'owner' | 'admin' | 'member' = me.role;
  const access: boolean = me.platformAccess;
  void [role, access, me.channels[0]?.id];
  await sb.workspace.chat.conversations.manage({ contactId, assigneeId: 'me' });
  await sb.workspace.chat.conversations.list({ assigneeId: 'me' });
  return me.id;
}

/** The stream's callbacks, and `types` narrowing what it yields. */
export async function stream(sb: SwitchboardClient): Promise<string> {
  const live = sb.events.stream({
    types: ['conversation.updated'],
    maxRetries: 5,
    onDisconnect: () => undefined,
    onError: (error, { attempt, nextRetryMs }) => void [error.code, attempt, nextRetryMs],
  });
  for await (const event of live) {
    const updated: StreamedEvent<'conversation.updated'> = event;
    // @ts-expect-error: only conversation.updated comes, which has no ticket
    void event.data.ticket;
    return updated.data.conversation.status;
  }
  const resumedFrom: string | undefined = live.lastEventId;
  return resumedFrom ?? '';
}

/** Inputs exactly as the server takes them. */
export async function inputs(sb: SwitchboardClient, contactId: string): Promise<void> {
  const { conversations, notes } = sb.workspace.chat;
  await conversations.manage({ contactId, status: 'resolved' });
  await conversations.manage({ phone: '15550000001', status: 'snoozed', snoozedUntil: new Date() });
  await conversations.manage({ contactId, assigneeId: null });
  // @ts-expect-error: a conversation is its contact's: contactId or phone
  await conversations.manage({ status: 'open' });
  // @ts-expect-error: one contact, not both
  await conversations.manage({ contactId, phone: '15550000001', status: 'open' });
  // @ts-expect-error: nothing to change
  await conversations.manage({ contactId });
  // @ts-expect-error: snoozed says until when
  await conversations.manage({ contactId, status: 'snoozed' });
  // @ts-expect-error: only snoozed takes snoozedUntil
  await conversations.manage({ contactId, status: 'open', snoozedUntil: new Date() });

  await notes.manage({ action: 'create', contactId, text: 'Called back' });
  await notes.manage({ action: 'delete', noteId: 'n' });
  // @ts-expect-error: a note is on a contact's conversation
  await notes.manage({ action: 'create', text: 'Called back' });
  // @ts-expect-error: delete names the note only
  await notes.manage({ action: 'delete', noteId: 'n', contactId });

  const create = { action: 'create', name: 'Jan', templateName: 'order_update' } as const;
  await sb.workspace.broadcasts.manage({ ...create, audience: { all: true }, scheduledAt: new Date() });
  await sb.workspace.broadcasts.manage({ ...create, audience: { labelIds: ['l'] } });
  // @ts-expect-error: an audience is one of labelIds, contactIds, all
  await sb.workspace.broadcasts.manage({ ...create, audience: {} });
  // @ts-expect-error: exactly one of them
  await sb.workspace.broadcasts.manage({ ...create, audience: { all: true, labelIds: ['l'] } });

  await sb.workspace.chat.templates.send({ to: '15550000001', templateName: 't', scheduledAt: new Date() });
}

/** Replies narrowed to what can come back. */
export function replies(sent: TemplatesSendResponse): 'accepted' | 'queued' | 'scheduled' {
  // @ts-expect-error: templates/send answers accepted, queued or scheduled, never delivered
  if (sent.data.status === 'delivered') return 'accepted';
  return sent.data.status;
}

/** One item by id, over its list. */
export async function singleReads(sb: SwitchboardClient, id: string): Promise<string> {
  const broadcast: Broadcast = (await sb.workspace.broadcasts.get(id)).data;
  const automation = (await sb.workspace.automations.get(id, { channelId: 'c' })).data;
  const endpoint = (await sb.platform.webhooks.get(id, { platformId: 'p' })).data;
  await sb.workspace.broadcasts.list({ broadcastId: id });
  // @ts-expect-error: webhooks live on a platform: platformId is required
  await sb.platform.webhooks.get(id);
  return [broadcast.status, automation.status, endpoint.status].join();
}

/** webhooks/manage by action, as every manage endpoint; the earlier form still compiles. */
export async function webhookActions(sb: SwitchboardClient, platformId: string, endpointId: string): Promise<void> {
  const manage = sb.platform.webhooks.manage;
  const created = await manage({ platformId, action: 'create', url: 'https://h.example', events: ['ticket.closed'] });
  const rotated = await manage({ platformId, action: 'rotate', endpointId });
  const secrets: string[] = [created.data.secret, rotated.data.secret];
  const updated = await manage({ platformId, action: 'update', endpointId, enabled: false });
  // @ts-expect-error: an update shows no secret
  void updated.data.secret;
  await manage({ platformId, action: 'delete', endpointId });
  await manage({ platformId, endpointId, rotateSecret: true });
  // @ts-expect-error: delete takes no changes
  await manage({ platformId, action: 'delete', endpointId, url: 'https://h.example' });
  // @ts-expect-error: rotate names its endpoint
  await manage({ platformId, action: 'rotate' });
  // @ts-expect-error: the action form leaves the deprecated flags out
  await manage({ platformId, action: 'update', endpointId, delete: true });
  void secrets;
}
