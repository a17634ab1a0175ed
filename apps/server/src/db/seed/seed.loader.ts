import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ZodIssue } from 'zod';
import { ApiKey } from '../../modules/api-keys/api-key.entity.js';
import { generateApiKey } from '../../modules/api-keys/api-key.crypto.js';
import { Automation } from '../../modules/automations/automation.entity.js';
import { Channel } from '../../modules/channels/channel.entity.js';
import { Contact } from '../../modules/contacts/contact.entity.js';
import { CustomField } from '../../modules/custom-fields/custom-field.entity.js';
import { Label } from '../../modules/labels/label.entity.js';
import { Message } from '../../modules/messages/message.entity.js';
import { Plan } from '../../modules/plans/plan.entity.js';
import { Subscription } from '../../modules/plans/subscription.entity.js';
import { Platform } from '../../modules/platforms/platform.entity.js';
import { countPlaceholders } from '../../modules/templates/template.placeholders.js';
import { Template } from '../../modules/templates/template.entity.js';
import { generateShortId } from '../../modules/tickets/short-id.js';
import { Ticket } from '../../modules/tickets/ticket.entity.js';
import { hashPassword } from '../../modules/users/password.js';
import { User } from '../../modules/users/user.entity.js';
import { WebhookEndpoint } from '../../modules/webhooks/webhook-endpoint.entity.js';
import { seedFileSchema, type ParsedSeedFile } from './seed.schema.js';

/** A problem in the seed file, located by its JSON path (e.g. `users[0].platform`). */
export class SeedError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(path ? `${path}: ${problem}` : problem);
  }
}

export type SeedResult = {
  platforms?: Record<string, string>;
  users?: Record<string, { id: string; apiKey: string | null }>;
  channels?: Record<string, string>;
  labels?: Record<string, string>;
  customFields?: Record<string, string>;
  contacts?: Record<string, string>;
  templates?: Record<string, string>;
  automations?: Record<string, string>;
  messages?: Record<string, string>;
  plans?: Record<string, string>;
  subscriptions?: Record<string, string>;
  tickets?: Record<string, { id: string; shortId: string }>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function jsonPath(path: (string | number)[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
}

export function parseSeedFile(input: unknown): ParsedSeedFile {
  const parsed = seedFileSchema.safeParse(input);
  if (!parsed.success) {
    const issue: ZodIssue = parsed.error.issues[0]!;
    throw new SeedError(jsonPath(issue.path), issue.message);
  }
  return parsed.data;
}

type Section = keyof SeedResult;

/** Entities created so far, by section and ref, so later sections can point at earlier ones. */
class Refs {
  private readonly byRef = new Map<string, unknown>();

  set(section: Section, ref: string | undefined, entity: unknown, path: string) {
    if (ref === undefined) return;
    const key = `${section}:${ref}`;
    if (this.byRef.has(key)) throw new SeedError(`${path}.ref`, `duplicate ref "${ref}"`);
    this.byRef.set(key, entity);
  }

  /** A ref from this file, or the id of a row that already exists. */
  async get<T extends object>(em: EntityManager, section: Section, entity: new () => T, ref: string, path: string): Promise<T> {
    const local = this.byRef.get(`${section}:${ref}`);
    if (local) return local as T;
    if (UUID.test(ref)) {
      const existing = await em.findOne(entity, { id: ref } as never);
      if (existing) return existing;
    }
    throw new SeedError(path, `unknown ${section} ref "${ref}"`);
  }
}

function addTo<K extends Section>(result: SeedResult, section: K, ref: string | undefined, value: NonNullable<SeedResult[K]>[string]) {
  if (ref === undefined) return;
  const map = (result[section] ??= {} as NonNullable<SeedResult[K]>) as Record<string, unknown>;
  map[ref] = value;
}

/**
 * Creates everything the seed file describes inside the caller's transaction and returns what each ref became.
 * Any invalid entry throws a SeedError naming its JSON path; the caller's transaction then writes nothing.
 */
export async function loadSeed(em: EntityManager, file: ParsedSeedFile): Promise<SeedResult> {
  const refs = new Refs();
  const result: SeedResult = {};

  for (const [i, item] of file.platforms.entries()) {
    const path = `platforms[${i}]`;
    if (await em.count(Platform, { domain: item.domain })) throw new SeedError(`${path}.domain`, `a platform with domain "${item.domain}" already exists`);
    const platform = em.create(Platform, { name: item.name, domain: item.domain, isActive: item.isActive });
    for (const hook of item.webhooks) {
      em.create(WebhookEndpoint, {
        platform,
        url: hook.url,
        secret: hook.secret ?? `whsec_${randomBytes(24).toString('base64')}`,
        events: hook.events,
      });
    }
    refs.set('platforms', item.ref, platform, path);
    addTo(result, 'platforms', item.ref, platform.id);
  }

  const usersByEmail = new Map<string, User>();
  for (const [i, item] of file.users.entries()) {
    const path = `users[${i}]`;
    const platform = await refs.get(em, 'platforms', Platform, item.platform, `${path}.platform`);
    const email = item.email.toLowerCase();
    const key = `${platform.id}:${email}`;
    if (usersByEmail.has(key) || (await em.count(User, { platform, email }))) {
      throw new SeedError(`${path}.email`, `a user with email "${email}" already exists in this platform`);
    }
    const user = em.create(User, {
      platform,
      email,
      name: item.name,
      role: item.role,
      platformAccess: item.platformAccess,
      permissions: item.permissions,
      passwordHash: item.password ? await hashPassword(item.password) : null,
    });
    usersByEmail.set(key, user);
    let apiKey: string | null = null;
    if (item.apiKey) {
      const generated = generateApiKey();
      em.create(ApiKey, { user, name: 'seed', prefix: generated.prefix, keyHash: generated.keyHash });
      apiKey = generated.apiKey;
    }
    refs.set('users', item.ref, user, path);
    addTo(result, 'users', item.ref, { id: user.id, apiKey });
  }

  for (const [i, item] of file.channels.entries()) {
    const path = `channels[${i}]`;
    const platform = await refs.get(em, 'platforms', Platform, item.platform, `${path}.platform`);
    const channel = em.create(Channel, { platform, name: item.name, phone: item.phone, status: item.status });
    for (const [j, userRef] of item.users.entries()) {
      const user = await refs.get(em, 'users', User, userRef, `${path}.users[${j}]`);
      if (user.platform.id !== platform.id) throw new SeedError(`${path}.users[${j}]`, 'user belongs to another platform');
      channel.users.add(user);
    }
    refs.set('channels', item.ref, channel, path);
    addTo(result, 'channels', item.ref, channel.id);
  }

  const labelsByName = new Map<string, Label>();
  for (const [i, item] of file.labels.entries()) {
    const path = `labels[${i}]`;
    const channel = await refs.get(em, 'channels', Channel, item.channel, `${path}.channel`);
    const key = `${channel.id}:${item.name}`;
    if (labelsByName.has(key)) throw new SeedError(`${path}.name`, `duplicate label "${item.name}" in this channel`);
    const label = em.create(Label, {
      channel,
      name: item.name,
      description: item.description ?? null,
      color: item.color ?? null,
      sortOrder: item.sortOrder,
    });
    labelsByName.set(key, label);
    refs.set('labels', item.ref, label, path);
    addTo(result, 'labels', item.ref, label.id);
  }

  for (const [i, item] of file.customFields.entries()) {
    const path = `customFields[${i}]`;
    const channel = await refs.get(em, 'channels', Channel, item.channel, `${path}.channel`);
    const field = em.create(CustomField, {
      channel,
      name: item.name,
      type: item.type,
      isRequired: item.isRequired,
      options: item.options,
      displayOrder: item.displayOrder,
    });
    refs.set('customFields', item.ref, field, path);
    addTo(result, 'customFields', item.ref, field.id);
  }

  const phones = new Set<string>();
  for (const [i, item] of file.contacts.entries()) {
    const path = `contacts[${i}]`;
    const channel = await refs.get(em, 'channels', Channel, item.channel, `${path}.channel`);
    if (phones.has(`${channel.id}:${item.phone}`)) throw new SeedError(`${path}.phone`, 'duplicate phone in this channel');
    phones.add(`${channel.id}:${item.phone}`);
    const contact = em.create(Contact, {
      channel,
      name: item.name,
      phone: item.phone,
      email: item.email ?? null,
      status: item.status,
      customFields: item.customFields,
    });
    for (const [j, labelName] of item.labels.entries()) {
      const label =
        labelsByName.get(`${channel.id}:${labelName}`) ?? (await em.findOne(Label, { channel, name: labelName }));
      if (!label) throw new SeedError(`${path}.labels[${j}]`, `no label "${labelName}" in this channel`);
      contact.labels.add(label);
    }
    refs.set('contacts', item.ref, contact, path);
    addTo(result, 'contacts', item.ref, contact.id);
  }

  for (const [i, item] of file.templates.entries()) {
    const path = `templates[${i}]`;
    const channel = await refs.get(em, 'channels', Channel, item.channel, `${path}.channel`);
    const template = em.create(Template, {
      channel,
      name: item.name,
      category: item.category,
      language: item.language,
      status: item.status,
      body: item.body,
      variableCount: countPlaceholders(item.body),
    });
    refs.set('templates', item.ref, template, path);
    addTo(result, 'templates', item.ref, template.id);
  }

  for (const [i, item] of file.automations.entries()) {
    const path = `automations[${i}]`;
    const channel = await refs.get(em, 'channels', Channel, item.channel, `${path}.channel`);
    const automation = em.create(Automation, {
      channel,
      name: item.name,
      status: item.status,
      executionCount: item.executionCount,
    });
    refs.set('automations', item.ref, automation, path);
    addTo(result, 'automations', item.ref, automation.id);
  }

  for (const [i, item] of file.messages.entries()) {
    const path = `messages[${i}]`;
    const channel = await refs.get(em, 'channels', Channel, item.channel, `${path}.channel`);
    if (await em.count(Message, { msgid: item.msgid })) throw new SeedError(`${path}.msgid`, `message "${item.msgid}" already exists`);
    const message = em.create(Message, {
      channel,
      msgid: item.msgid,
      to: item.to,
      status: item.status,
      direction: item.direction,
      type: item.type,
    });
    refs.set('messages', item.ref, message, path);
    addTo(result, 'messages', item.ref, message.id);
  }

  for (const [i, item] of file.plans.entries()) {
    const path = `plans[${i}]`;
    const platform = await refs.get(em, 'platforms', Platform, item.platform, `${path}.platform`);
    if (Object.keys(item.prices).length === 0) throw new SeedError(`${path}.prices`, 'must have at least one price');
    const plan = em.create(Plan, {
      platform,
      name: item.name,
      itemType: item.itemType,
      prices: item.prices,
      currency: item.currency,
      isActive: item.isActive,
    });
    refs.set('plans', item.ref, plan, path);
    addTo(result, 'plans', item.ref, plan.id);
  }

  for (const [i, item] of file.subscriptions.entries()) {
    const path = `subscriptions[${i}]`;
    const user = await refs.get(em, 'users', User, item.user, `${path}.user`);
    const plan = await refs.get(em, 'plans', Plan, item.plan, `${path}.plan`);
    if (plan.platform.id !== user.platform.id) throw new SeedError(`${path}.plan`, 'plan belongs to another platform');
    if (plan.itemType !== 'plan') throw new SeedError(`${path}.plan`, 'must be a base plan (itemType "plan")');
    const subscription = em.create(Subscription, { user, plan, status: item.status, billingCycle: item.billingCycle });
    refs.set('subscriptions', item.ref, subscription, path);
    addTo(result, 'subscriptions', item.ref, subscription.id);
  }

  for (const [i, item] of file.tickets.entries()) {
    const path = `tickets[${i}]`;
    const platform = await refs.get(em, 'platforms', Platform, item.platform, `${path}.platform`);
    const email = item.email.toLowerCase();
    let owner = usersByEmail.get(`${platform.id}:${email}`) ?? (await em.findOne(User, { platform, email }));
    if (!owner) {
      owner = em.create(User, { platform, email, name: email.split('@')[0]!, role: 'admin', platformAccess: false, permissions: [] });
      usersByEmail.set(`${platform.id}:${email}`, owner);
    }
    const ticket = em.create(Ticket, {
      platform,
      shortId: generateShortId(),
      owner,
      title: item.title,
      description: item.description,
      status: item.status,
      priority: item.priority,
      closedAt: item.status === 'closed' ? new Date() : null,
    });
    refs.set('tickets', item.ref, ticket, path);
    addTo(result, 'tickets', item.ref, { id: ticket.id, shortId: ticket.shortId });
  }

  await em.flush();
  return result;
}

/** Parses and loads a seed file in one transaction: all or nothing. */
export async function seed(em: EntityManager, input: unknown): Promise<SeedResult> {
  const file = parseSeedFile(input);
  return em.transactional((tx) => loadSeed(tx, file));
}
