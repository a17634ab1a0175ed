// Type-level tests of the SDK: compiled by `pnpm typecheck` (tests/), and in package.test.ts against the packed
// tarball under exactOptionalPropertyTypes with moduleResolution nodenext, node16 and bundler. Each
// `@ts-expect-error` line is a misuse that must not compile: if it ever compiles, tsc fails on the unused directive.
import {
  createClient,
  isSwitchboardError,
  verifyWebhook,
  WebhookVerificationError,
  type Contact,
  type PagedMethod,
  type SwitchboardApi,
  type SwitchboardClient,
  type SwitchboardEvent,
  type TicketSummary,
  type PlatformUser,
  type WebhookDelivery,
  type AutomationRun,
  type AutomationsRunsResponse,
  type ConnectionErrorCode,
  type Conversation,
  type ConversationsListResponse,
  type MediaGetResponse,
  type MediaLink,
  type Interactive,
  type InteractiveReply,
  type Location,
  type Message,
  type MessagesListResponse,
  type Reaction,
  type SwitchboardErrorCode,
} from '@switchboard/client';
import {
  verifyWebhook as verifyLight,
  WebhookVerificationError as LightVerificationError,
  type AutomationRunCompletedEvent,
  type SwitchboardEvent as LightEvent,
} from '@switchboard/client/webhooks';

declare const maybeSignal: AbortSignal | undefined;

/** Every list of the API (a method with `.all()`), found through its type: lists added later are checked too. */
type Lists<T> = T extends { all: unknown } ? T : T extends object ? { [K in keyof T]: Lists<T[K]> }[keyof T] : never;
/** `paginate` takes the list, and its items are typed (not `unknown`). */
type Paginates<M> = M extends PagedMethod<infer _Params, infer Item> ? (unknown extends Item ? false : true) : false;
type EveryList = Lists<SwitchboardApi>;
// A list found (not `never`, which would pass vacuously), and none that paginate refuses or leaves untyped.
export const everyListPaginates: [EveryList] extends [never]
  ? never
  : false extends Paginates<EveryList>
    ? never
    : true = true;
// @ts-expect-error: a method that is not a list fails the check
export const notAList: false extends Paginates<SwitchboardApi['workspace']['labels']['list']> ? never : true = true;

/** Bug 1: every paginated endpoint iterates with typed items, whether its parameters are required or not. */
export async function pagination(sb: SwitchboardClient): Promise<void> {
  for await (const ticket of sb.paginate(sb.platform.tickets.list, { platformId: 'p', status: 'open' })) {
    const summary: TicketSummary = ticket;
    void summary;
  }
  for await (const user of sb.paginate(sb.platform.users.list, { platformId: 'p' })) void (user satisfies PlatformUser);
  for await (const delivery of sb.platform.webhooks.deliveries.all({ platformId: 'p', endpointId: 'e' }))
    void (delivery satisfies WebhookDelivery);
  const contacts: Contact[] = await sb.workspace.contacts.list.all({ search: 'ada' }).toArray({ limit: 100 });
  void contacts;
  for await (const contact of sb.workspace.contacts.list.all(undefined, { signal: maybeSignal, timeout: 5_000 }))
    void contact.phone;
  // @ts-expect-error: platformId is required by tickets/list
  sb.platform.tickets.list.all();
  // @ts-expect-error: users/list needs its platformId through paginate too
  sb.paginate(sb.platform.users.list, {});
  // @ts-expect-error: the iteration drives `page` itself
  sb.workspace.contacts.list.all({ page: 2 });
  // @ts-expect-error: labels/list is not paginated
  void sb.workspace.labels.list.all;
  // @ts-expect-error: toArray needs a bound
  await sb.workspace.contacts.list.all().toArray();
}

/** Bug 3: per-call options take a possibly-undefined value (exactOptionalPropertyTypes). */
export async function options(sb: SwitchboardClient, idempotencyKey: string | undefined): Promise<void> {
  await sb.workspace.channels.list({}, { signal: maybeSignal, timeout: undefined });
  await sb.workspace.labels.manage({ name: 'vip' }, { idempotencyKey });
  createClient({
    baseUrl: 'https://sb.example.com',
    apiKey: 'k',
    maxRetries: 0,
    appInfo: { name: 'acme', url: undefined },
  });
  // @ts-expect-error: appInfo names the app
  createClient({ baseUrl: 'https://sb.example.com', apiKey: 'k', appInfo: { version: '1.0.0' } });
  // @ts-expect-error: maxRetries is a count
  createClient({ baseUrl: 'https://sb.example.com', apiKey: 'k', maxRetries: true });
}

/** Response metadata on every method's promise. */
export async function metadata(sb: SwitchboardClient): Promise<void> {
  const { data, response } = await sb.workspace.channels.list().withResponse();
  const total: number = data.total;
  const requestId: string | undefined = response.requestId;
  const remaining: number | undefined = response.rateLimit?.remaining;
  const replayed: boolean = response.idempotentReplayed;
  void [total, requestId, remaining, replayed];
  // @ts-expect-error: the metadata is not on the body
  void (await sb.workspace.channels.list()).response;
}

/** Errors narrow per endpoint; every error has rawCode, param, response and (for no reply) cause. */
export async function errors(sb: SwitchboardClient): Promise<string> {
  try {
    await sb.platform.tickets.get({ platformId: 'p', ticketId: 'T-1' });
    return 'found';
  } catch (error) {
    if (sb.platform.tickets.get.isError(error)) {
      const raw: string | undefined = error.rawCode;
      const param: string | undefined = error.param;
      void [raw, param, error.response?.requestId, error.cause];
      // @ts-expect-error: tickets/get never fails with template_not_found
      if (error.code === 'template_not_found') return 'impossible';
      switch (error.code) {
        case 'ticket_not_found':
          return 'no such ticket';
        case 'rate_limited':
          return 'later';
        default:
          return error.code;
      }
    }
    return isSwitchboardError(error) ? error.code : 'not ours';
  }
}

/** Bug 6: webhooks/manage's reply follows its parameters; events are the known event types. */
export async function webhookManagement(sb: SwitchboardClient): Promise<void> {
  const platformId = 'p';
  const created = await sb.platform.webhooks.manage({
    platformId,
    url: 'https://h.example',
    events: ['ticket.closed'],
  });
  const secret: string = created.data.secret;
  const rotated = await sb.platform.webhooks.manage({ platformId, endpointId: created.data.id, rotateSecret: true });
  const next: string = rotated.data.secret;
  const redelivered = await sb.platform.webhooks.manage({ platformId, redeliver: 'delivery-id' });
  const attempts: number = redelivered.data.attempts.length;
  const updated = await sb.platform.webhooks.manage({ platformId, endpointId: created.data.id, enabled: false });
  // @ts-expect-error: an update shows no secret
  void updated.data.secret;
  // @ts-expect-error: a misspelt event type
  await sb.platform.webhooks.manage({ platformId, url: 'https://h.example', events: ['ticket.close'] });
  void [secret, next, attempts];
}

/** Typed events from one verified call. */
export function events(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): string {
  let event: SwitchboardEvent;
  try {
    event = verifyWebhook(rawBody, headers, ['whsec_new', 'whsec_old']);
  } catch (error) {
    return error instanceof WebhookVerificationError ? error.reason : 'other';
  }
  switch (event.type) {
    case 'ticket.closed':
      return event.data.ticket.id;
    case 'message.received':
      // @ts-expect-error: a received message carries no ticket
      void event.data.ticket;
      return event.data.media?.mimeType ?? event.data.text ?? event.data.type;
    case 'message.status.updated':
      return event.data.status;
    case 'automation.run.completed':
      return event.data.run.steps.map((step) => step.outcome).join(',');
    case 'conversation.updated':
      return event.data.by.type === 'user' ? event.data.by.id : event.data.conversation.status;
    case 'contact.status.changed':
      return event.data.previousStatus;
    case 'broadcast.completed':
      return String(event.data.broadcast.counts.recipients);
    case 'template.updated':
      return event.data.changes.status?.current ?? event.data.template.quality;
    case 'channel.updated':
      return event.data.channel.messagingLimit ?? event.data.channel.quality;
  }
}

// @ts-expect-error: one name for tickets/manage's parameters: TicketManageParams
export type Duplicate = import('@switchboard/client').TicketsManageParams;

/** Whether two types are the same (each assignable to the other, also through any and optional members). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Named resource types: each is the very type its method returns. */
export const namedTypes: [
  Same<Message, MessagesListResponse['data'][number]>,
  Same<Conversation, ConversationsListResponse['data'][number]>,
  Same<MediaLink, MediaGetResponse['data']>,
  Same<AutomationRun, AutomationsRunsResponse['data'][number]>,
] = [true, true, true, true];

/** Inputs the server would refuse do not compile; per-action forms, idempotencyKey on writes only. */
export async function inputs(sb: SwitchboardClient, channelId: string): Promise<void> {
  await sb.workspace.automations.manage({
    channelId,
    action: 'create',
    name: 'Welcome',
    trigger: { event: 'contact.created' },
    actions: [{ type: 'send_text', text: 'Hi' }],
  });
  await sb.workspace.automations.manage({ channelId, action: 'update', automationId: 'a', status: 'paused' });
  await sb.workspace.automations.manage({ channelId, action: 'delete', automationId: 'a' }, { idempotencyKey: 'k' });
  // @ts-expect-error: create needs a name, a trigger and actions
  await sb.workspace.automations.manage({ action: 'create', channelId });
  // @ts-expect-error: update needs the automation it changes
  await sb.workspace.automations.manage({ channelId, action: 'update', status: 'paused' });
  // @ts-expect-error: delete takes no name
  await sb.workspace.automations.manage({ channelId, action: 'delete', automationId: 'a', name: 'x' });
  await sb.workspace.chat.message.send({ channelId, to: '15550000001', text: 'Hi', previewUrl: true });
  await sb.workspace.chat.message.send({
    channelId,
    contactId: 'c',
    type: 'document',
    mediaUrl: 'https://f',
    filename: 'a',
  });
  // @ts-expect-error: an image needs its mediaUrl
  await sb.workspace.chat.message.send({ channelId, to: '15550000001', type: 'image' });
  // @ts-expect-error: a text has no mediaUrl
  await sb.workspace.chat.message.send({ channelId, to: '15550000001', text: 'Hi', mediaUrl: 'https://f' });
  // @ts-expect-error: only a document has a filename
  await sb.workspace.chat.message.send({ channelId, to: '1', type: 'image', mediaUrl: 'https://f', filename: 'a' });
  const buttons: Interactive = {
    kind: 'buttons',
    body: 'Your order?',
    buttons: [{ id: 'track_order', title: 'Track order' }],
  };
  await sb.workspace.chat.message.send({ channelId, to: '15550000001', type: 'interactive', interactive: buttons });
  const place: Location = { latitude: 52.37, longitude: 4.89, name: 'Depot' };
  await sb.workspace.chat.message.send({ channelId, to: '15550000001', type: 'location', location: place });
  await sb.workspace.chat.message.send({ channelId, to: '1', type: 'reaction', reaction: { msgid: 'm', emoji: '👍' } });
  await sb.workspace.chat.message.send({
    channelId,
    to: '1',
    type: 'interactive',
    // @ts-expect-error: a buttons message needs its buttons
    interactive: { kind: 'buttons', body: 'x' },
  });
  // @ts-expect-error: a reaction names the message it reacts to
  await sb.workspace.chat.message.send({ channelId, to: '1', type: 'reaction', reaction: { emoji: '👍' } });
  // @ts-expect-error: an interactive message needs its interactive object
  await sb.workspace.chat.message.send({ channelId, to: '1', type: 'interactive' });
  // @ts-expect-error: a location takes no text
  await sb.workspace.chat.message.send({ channelId, to: '1', type: 'location', location: place, text: 'Hi' });
  // @ts-expect-error: a list's rows live in sections
  const flat: Interactive = { kind: 'list', body: 'Pick', button: 'Options', rows: [] };
  void flat;
  await sb.workspace.chat.message.read({ msgid: 'm', typing: true });
  // @ts-expect-error: a read is never stored, so it takes no idempotencyKey
  await sb.workspace.contacts.list({ channelId }, { idempotencyKey: 'k' });
  // @ts-expect-error: nor does a paginated list
  await sb.platform.tickets.list({ platformId: 'p' }, { idempotencyKey: 'k' });
}

/** Connection failures have this SDK's three codes; no transport code joins an endpoint's union. */
export function connectionCodes(code: ConnectionErrorCode): SwitchboardErrorCode {
  const known: 'timeout' | 'aborted' | 'network' = code;
  // @ts-expect-error: axios's codes are not the SDK's
  const axiosCode: SwitchboardErrorCode = 'ERR_FR_TOO_MANY_REDIRECTS';
  void axiosCode;
  return known;
}

/** `@switchboard/client/webhooks`: the same typed events without the client. */
export function lightEvents(rawBody: string, headers: Headers): string {
  try {
    const event: LightEvent = verifyLight(rawBody, headers, 'whsec_x');
    const main: SwitchboardEvent = event;
    if (event.type === 'automation.run.completed') {
      const completed: AutomationRunCompletedEvent = event;
      return completed.data.run.outcome;
    }
    return main.type;
  } catch (error) {
    return error instanceof LightVerificationError ? error.reason : 'other';
  }
}

/** What a customer tapped or reacted with, read through the named types (a tap's id, a reaction's emoji). */
export function tappedOrReacted(message: Message): string | null {
  const interactive: Interactive | InteractiveReply | null = message.interactive;
  const reaction: Reaction | null = message.reaction;
  if (interactive?.kind === 'button_reply' || interactive?.kind === 'list_reply') return interactive.id;
  // @ts-expect-error: a tap has no buttons (only the interactive message sent has)
  void interactive?.buttons;
  return reaction?.emoji ?? null;
}
