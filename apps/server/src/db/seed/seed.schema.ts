import {
  AUTOMATION_STATUSES,
  BILLING_CYCLES,
  CHANNEL_STATUSES,
  CONTACT_STATUSES,
  CUSTOM_FIELD_TYPES,
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  PLAN_ITEM_TYPES,
  TEMPLATE_CATEGORIES,
  TEMPLATE_STATUSES,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
} from '@switchboard/contract';
import { z } from 'zod';
import { USER_ROLES } from '../../modules/users/user.entity.js';
import { SUBSCRIPTION_STATUSES } from '../../modules/plans/subscription.entity.js';

const ref = z.string().min(1);
const digits = z.string().regex(/^\d{8,15}$/, 'must be 8 to 15 digits with country code, no +');
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex color like #ff8800');
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=]{16,}$/;

export const webhookSeed = z
  .object({
    url: z.string().url().refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
    secret: z.string().regex(WEBHOOK_SECRET_PATTERN, 'must be whsec_ followed by base64').optional(),
    events: z.array(z.string().min(1)).min(1).default(['ticket.closed']),
  })
  .strict();

const platform = z
  .object({
    ref: ref.optional(),
    name: z.string().min(1).max(200),
    domain: z.string().min(1).max(253),
    isActive: z.boolean().default(true),
    webhooks: z.array(webhookSeed).default([]),
  })
  .strict();

const user = z
  .object({
    ref: ref.optional(),
    platform: ref,
    email: z.string().email(),
    name: z.string().min(1).max(200),
    role: z.enum(USER_ROLES).default('member'),
    platformAccess: z.boolean().default(false),
    permissions: z.array(z.string().min(1)).default([]),
    password: z.string().min(8, 'must be at least 8 characters').optional(),
    apiKey: z.boolean().default(false),
  })
  .strict();

const channel = z
  .object({
    ref: ref.optional(),
    platform: ref,
    name: z.string().min(1).max(200),
    phone: digits,
    status: z.enum(CHANNEL_STATUSES).default('active'),
    users: z.array(ref).default([]),
  })
  .strict();

const label = z
  .object({
    ref: ref.optional(),
    channel: ref,
    name: z.string().min(1).max(100),
    description: z.string().max(500).nullable().optional(),
    color: color.nullable().optional(),
    sortOrder: z.number().int().default(0),
  })
  .strict();

const customField = z
  .object({
    ref: ref.optional(),
    channel: ref,
    name: z.string().min(1).max(100),
    type: z.enum(CUSTOM_FIELD_TYPES),
    isRequired: z.boolean().default(false),
    options: z.array(z.string()).nullable().default(null),
    displayOrder: z.number().int().default(0),
  })
  .strict()
  .refine((f) => (f.type === 'select') === (f.options !== null && f.options.length > 0), {
    message: 'options must be a non-empty list for a select field and null otherwise',
    path: ['options'],
  });

const contact = z
  .object({
    ref: ref.optional(),
    channel: ref,
    name: z.string().min(1).max(200),
    phone: digits,
    email: z.string().email().nullable().optional(),
    labels: z.array(z.string().min(1)).default([]),
    status: z.enum(CONTACT_STATUSES).default('active'),
    customFields: z.record(z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}),
  })
  .strict();

const template = z
  .object({
    ref: ref.optional(),
    channel: ref,
    name: z.string().min(1).max(200),
    category: z.enum(TEMPLATE_CATEGORIES),
    language: z.string().min(2).max(20),
    status: z.enum(TEMPLATE_STATUSES),
    body: z.string().min(1),
  })
  .strict();

const automation = z
  .object({
    ref: ref.optional(),
    channel: ref,
    name: z.string().min(1).max(200),
    status: z.enum(AUTOMATION_STATUSES).default('active'),
    executionCount: z.number().int().min(0).default(0),
  })
  .strict();

const message = z
  .object({
    ref: ref.optional(),
    channel: ref,
    msgid: z.string().min(1).max(200),
    to: digits,
    status: z.enum(MESSAGE_STATUSES),
    direction: z.enum(MESSAGE_DIRECTIONS).default('outbound'),
    type: z.enum(MESSAGE_TYPES).default('text'),
  })
  .strict();

const prices = z
  .object({
    monthly: z.number().nonnegative().optional(),
    quarterly: z.number().nonnegative().optional(),
    annual: z.number().nonnegative().optional(),
    onetime: z.number().nonnegative().optional(),
  })
  .strict();

const plan = z
  .object({
    ref: ref.optional(),
    platform: ref,
    name: z.string().min(1).max(200),
    itemType: z.enum(PLAN_ITEM_TYPES),
    prices,
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like USD').default('USD'),
    isActive: z.boolean().default(true),
  })
  .strict();

const subscription = z
  .object({
    ref: ref.optional(),
    user: ref,
    plan: ref,
    status: z.enum(SUBSCRIPTION_STATUSES).default('active'),
    billingCycle: z.enum(BILLING_CYCLES).default('monthly'),
  })
  .strict();

const ticket = z
  .object({
    ref: ref.optional(),
    platform: ref,
    email: z.string().email(),
    title: z.string().min(1).max(200),
    description: z.string().min(1),
    status: z.enum(TICKET_STATUSES).default('open'),
    priority: z.enum(TICKET_PRIORITIES).default('medium'),
  })
  .strict();

/** The declarative seed file: every section optional, refs tie entries together within the file. */
export const seedFileSchema = z
  .object({
    platforms: z.array(platform).default([]),
    users: z.array(user).default([]),
    channels: z.array(channel).default([]),
    labels: z.array(label).default([]),
    customFields: z.array(customField).default([]),
    contacts: z.array(contact).default([]),
    templates: z.array(template).default([]),
    automations: z.array(automation).default([]),
    messages: z.array(message).default([]),
    plans: z.array(plan).default([]),
    subscriptions: z.array(subscription).default([]),
    tickets: z.array(ticket).default([]),
  })
  .strict();

export type SeedFile = z.input<typeof seedFileSchema>;
export type ParsedSeedFile = z.output<typeof seedFileSchema>;
