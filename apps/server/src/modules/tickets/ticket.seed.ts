import { TICKET_PRIORITIES, TICKET_STATUSES, ticketManageParams } from '@switchboard/contract';
import { z } from 'zod';
import { contractFields, seedRef, seedSection } from '../../kit/seed.js';
import { Platform } from '../platforms/index.js';
import { User, userKey } from '../users/index.js';
import { generateShortId } from './short-id.js';
import { Ticket } from './ticket.entity.js';

/** A new ticket's fields as tickets/manage takes them. */
const { email, title, description } = contractFields(ticketManageParams);

export const ticketsSeed = seedSection({
  key: 'tickets',
  item: z
    .object({
      ref: seedRef.optional(),
      platform: seedRef,
      email: email.unwrap(),
      title: title.unwrap(),
      description: description.unwrap(),
      status: z.enum(TICKET_STATUSES).default('open'),
      priority: z.enum(TICKET_PRIORITIES).default('medium'),
    })
    .strict(),
  async load(ctx, item, path) {
    const { em } = ctx;
    const platform = await ctx.ref('platforms', Platform, item.platform, `${path}.platform`);
    const email = item.email.toLowerCase();
    const users = ctx.created(User);
    // The owner: a user of this file or of the database, else a new admin user of the platform (as tickets/manage
    // does).
    let owner = users.get(userKey(platform.id, email)) ?? (await em.findOne(User, { platform, email }));
    if (!owner) {
      owner = em.create(User, {
        platform,
        email,
        name: email.split('@')[0]!,
        role: 'admin',
        platformAccess: false,
        permissions: [],
      });
      users.set(userKey(platform.id, email), owner);
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
    return { entity: ticket, result: { id: ticket.id, shortId: ticket.shortId } };
  },
});
