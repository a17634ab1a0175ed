import { z } from 'zod';
import {
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  isoTimeParam,
  named,
  okEnvelope,
  pageEnvelope,
  pagingParams,
  timestampSchema,
  userIdParam,
  withFieldRules,
  type FieldProblem,
} from '../common/index.js';
import { platformIdParam } from './platforms.js';

export const TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export const SENDER_ROLES = ['admin', 'creator'] as const;

export const ticketMessageSchema = named(
  'TicketMessage',
  z.object({
    id: idSchema,
    message: z.string(),
    senderRole: z.enum(SENDER_ROLES),
    isInternal: z.boolean(),
    authorId: idSchema.nullable(),
    createdAt: timestampSchema,
  }),
);

/** A ticket without its thread: what tickets/list gives. */
export const ticketSummarySchema = named(
  'TicketSummary',
  z.object({
    id: idSchema.describe('Full UUID'),
    shortId: z.string().describe('Short reference, also accepted as ticketId'),
    title: z.string(),
    description: z.string(),
    status: z.enum(TICKET_STATUSES),
    priority: z.enum(TICKET_PRIORITIES),
    assignedToId: idSchema.nullable(),
    assignedToName: z.string().nullable(),
    owner: z.object({ id: idSchema, email: z.string(), name: z.string() }),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    closedAt: timestampSchema.nullable(),
  }),
);
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

/** The whole ticket: its thread, oldest message first, internal notes included. */
export const ticketSchema = named('Ticket', ticketSummarySchema.extend({ messages: z.array(ticketMessageSchema) }));
export type Ticket = z.infer<typeof ticketSchema>;

const ticketIdParam = () => z.string({ required_error: 'is required' }).min(1, 'must not be empty');

const ticketManageFields = z.object({
  platformId: platformIdParam,
  ticketId: ticketIdParam().optional().describe('Full UUID or shortId; omit to create a ticket'),
  email: z.string().email('must be an email address').optional().describe('Creation: the ticket owner’s email'),
  title: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  description: z.string().trim().min(1, 'must not be empty').max(10_000, 'must be at most 10000 characters').optional(),
  status: z.enum(TICKET_STATUSES).optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  message: z.string().trim().min(1, 'must not be empty').max(10_000, 'must be at most 10000 characters').optional(),
  senderRole: z
    .enum(SENDER_ROLES)
    .optional()
    .describe('`admin` (default, posts as the API caller) or `creator` (the ticket owner)'),
  isInternal: z.boolean().optional().describe('Admin-only note; rejected with senderRole `creator`'),
  assignedToId: userIdParam()
    .nullable()
    .optional()
    .describe('An admin (or owner) user of the platform (`me`: the key’s user); null unassigns'),
  assignedToName: z.string().max(200, 'must be at most 200 characters').nullable().optional(),
});

type TicketManageInput = z.input<typeof ticketManageFields>;
/** Creation: no ticketId; the owner's email, a title and a description. */
export type TicketCreateParams = Omit<TicketManageInput, 'ticketId'> & {
  ticketId?: undefined;
  email: string;
  title: string;
  description: string;
};
/** Update: the ticket's UUID or shortId, and what changes. */
export type TicketUpdateParams = TicketManageInput & { ticketId: string };
export type TicketManageParams = TicketCreateParams | TicketUpdateParams;

/** What creation needs, and which `message` options go together. */
function ticketManageProblems(params: z.output<typeof ticketManageFields>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (params.ticketId === undefined) {
    for (const field of ['email', 'title', 'description'] as const) {
      if (params[field] === undefined)
        problems.push({ field, problem: 'is required to create a ticket (no ticketId given)' });
    }
    if (params.status !== undefined && params.status !== 'open') {
      problems.push({ field: 'status', problem: 'a new ticket starts open; change the status with an update' });
    }
  }
  if (params.message === undefined) {
    for (const field of ['senderRole', 'isInternal'] as const) {
      if (params[field] !== undefined) problems.push({ field, problem: 'only applies together with message' });
    }
  } else if (params.isInternal && params.senderRole === 'creator') {
    problems.push({ field: 'isInternal', problem: 'marks an admin note and cannot be used with senderRole creator' });
  }
  return problems;
}

export const ticketManageParams = withFieldRules<TicketManageParams>()(ticketManageFields, {
  sets: [['email', 'title', 'description'], ['ticketId']],
  check: ticketManageProblems,
});
export type TicketManageValues = z.output<typeof ticketManageParams>;

export const ticketsListParams = z.object({
  platformId: platformIdParam,
  status: z.enum(TICKET_STATUSES).optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  assignedToId: userIdParam().optional().describe('Only tickets assigned to this user (`me`: the key’s user)'),
  email: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(320, 'must be at most 320 characters')
    .optional()
    .describe('Only tickets of the owner with this email (case-insensitive)'),
  updatedSince: isoTimeParam()
    .optional()
    .describe('Only tickets updated at or after this time (a thread message counts as an update)'),
  ...pagingParams('tickets'),
});
export type TicketsListValues = z.output<typeof ticketsListParams>;

/** tickets/manage before tickets/get: a collection run in order reads the ticket it just opened. */
export const ticketsContract = {
  list: endpoint({
    operation: 'platform.tickets.list',
    path: '/api/platform/v1/tickets/list',
    summary: 'List support tickets of the platform, paginated',
    description:
      'Most recently updated first (updatedAt, then id, descending); filters combine. Each ticket comes without its ' +
      'thread: tickets/get gives the thread, internal notes included.',
    params: ticketsListParams,
    response: pageEnvelope(ticketSummarySchema),
    rateClass: 'api_read',
    access: { scope: 'platform' },
    example: { platformId: EXAMPLE_IDS.platformId, status: 'open', page: 1, limit: 50 },
  }),
  manage: endpoint({
    operation: 'platform.tickets.manage',
    path: '/api/platform/v1/tickets/manage',
    summary: 'Create or update a support ticket',
    description:
      'Without ticketId: create (email, title, description required; the owner is the platform user with that email, ' +
      'or a new admin user; a new ticket is `open`; message `Ticket created successfully`). With ticketId (UUID or ' +
      'shortId): update status, priority, title, description, assignedToId (an admin of the platform) and ' +
      'assignedToName, and optionally add a thread message (`senderRole` `admin` posts as the API caller, `creator` ' +
      'as the ticket owner; `isInternal` only for admin messages); message `Ticket updated successfully`. An unknown ' +
      'ticket, or one of another platform, gives 404 `ticket_not_found`. Moving a ticket into `closed` emails its ' +
      'owner and fires the `ticket.closed` webhook (Standard Webhooks signature); closing an already closed ticket ' +
      'sends nothing.',
    params: ticketManageParams,
    response: okEnvelope(ticketSchema),
    rateClass: 'api_admin_write',
    access: { scope: 'platform' },
    // Without ticketId it opens another ticket; closing one e-mails its owner and fires a webhook.
    effects: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    errors: ['ticket_not_found'],
    example: {
      platformId: EXAMPLE_IDS.platformId,
      email: 'customer@example.com',
      title: 'Cannot log in',
      description: 'The login page says my password is wrong.',
      priority: 'high',
    },
  }),
  get: endpoint({
    operation: 'platform.tickets.get',
    path: '/api/platform/v1/tickets/get',
    summary: 'Get a support ticket with its thread',
    description:
      'The whole ticket as tickets/manage returns it, with every thread message, internal notes included. An unknown ' +
      'ticket, or one of another platform, gives 404 `ticket_not_found`.',
    params: z.object({ platformId: platformIdParam, ticketId: ticketIdParam().describe('Full UUID or shortId') }),
    response: okEnvelope(ticketSchema),
    rateClass: 'api_read',
    access: { scope: 'platform' },
    errors: ['ticket_not_found'],
    example: { platformId: EXAMPLE_IDS.platformId, ticketId: EXAMPLE_IDS.ticketId },
  }),
};
