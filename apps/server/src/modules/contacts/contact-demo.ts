import type { z } from 'zod';
import type { contactsSeed } from './contact.seed.js';

/**
 * The demo channels' contacts: labelled, with custom field values, one unsubscribed (contacts/list has something to
 * filter).
 */
export const contactsDemo: z.input<typeof contactsSeed.item>[] = [
  {
    ref: 'ada',
    channel: 'support',
    name: 'Ada Lovelace',
    phone: '15550000001',
    email: 'ada@example.com',
    labels: ['vip'],
    customFields: { Age: 36, Plan: 'pro' },
  },
  {
    ref: 'grace',
    channel: 'support',
    name: 'Grace Hopper',
    phone: '15550000002',
    email: 'grace@example.com',
    labels: ['vip', 'new'],
    customFields: { Plan: 'enterprise' },
  },
  { channel: 'support', name: 'Alan Turing', phone: '447700900003', email: 'alan@example.com', labels: ['new'] },
  { channel: 'support', name: 'Katherine Johnson', phone: '15550000004', email: null },
  {
    channel: 'support',
    name: 'Edsger Dijkstra',
    phone: '31200000005',
    email: 'edsger@example.com',
    status: 'unsubscribed',
  },
  { channel: 'sales', name: 'Linus Torvalds', phone: '358400000006', email: 'linus@example.com', labels: ['lead'] },
  { channel: 'sales', name: 'Margaret Hamilton', phone: '15550000007', email: 'margaret@example.com' },
];
