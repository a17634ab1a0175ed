import type { EntityManager } from '@mikro-orm/postgresql';
import { Platform } from './modules/platforms/platform.entity.js';
import { seed, type SeedFile, type SeedResult } from './wiring.js';

export const DEMO_PASSWORD = 'switchboard-demo';

/** What a fresh install shows: one platform, its owner, two channels and enough data to try every endpoint. */
export const demoSeed: SeedFile = {
  platforms: [{ ref: 'demo', name: 'Demo Co', domain: 'demo.switchboard.local', isActive: true }],
  users: [
    {
      ref: 'owner',
      platform: 'demo',
      email: 'owner@demo.switchboard.local',
      name: 'Olive Owner',
      role: 'owner',
      platformAccess: true,
      permissions: ['platform:view', 'platform:edit', 'platform:manage', 'settings:api'],
      password: DEMO_PASSWORD,
      apiKey: true,
    },
    { ref: 'agent', platform: 'demo', email: 'agent@demo.switchboard.local', name: 'Avery Agent', role: 'admin' },
  ],
  channels: [
    { ref: 'support', platform: 'demo', name: 'Support', phone: '15550001111', users: ['owner', 'agent'] },
    { ref: 'sales', platform: 'demo', name: 'Sales', phone: '15550002222', users: ['owner'] },
  ],
  labels: [
    { channel: 'support', name: 'vip', description: 'Top customers', color: '#ff8800', sortOrder: 1 },
    { channel: 'support', name: 'new', description: 'Joined this month', color: '#22aa55', sortOrder: 2 },
    { channel: 'sales', name: 'lead', description: 'Warm lead', color: '#3366ff', sortOrder: 1 },
  ],
  customFields: [
    { channel: 'support', name: 'Age', type: 'number', displayOrder: 1 },
    { channel: 'support', name: 'Plan', type: 'select', options: ['free', 'pro', 'enterprise'], displayOrder: 2 },
    { channel: 'support', name: 'Birthday', type: 'date', displayOrder: 3 },
  ],
  contacts: [
    { ref: 'ada', channel: 'support', name: 'Ada Lovelace', phone: '15550000001', email: 'ada@example.com', labels: ['vip'], customFields: { Age: 36, Plan: 'pro' } },
    { ref: 'grace', channel: 'support', name: 'Grace Hopper', phone: '15550000002', email: 'grace@example.com', labels: ['vip', 'new'], customFields: { Plan: 'enterprise' } },
    { channel: 'support', name: 'Alan Turing', phone: '447700900003', email: 'alan@example.com', labels: ['new'] },
    { channel: 'support', name: 'Katherine Johnson', phone: '15550000004', email: null },
    { channel: 'support', name: 'Edsger Dijkstra', phone: '31200000005', email: 'edsger@example.com', status: 'unsubscribed' },
    { channel: 'sales', name: 'Linus Torvalds', phone: '358400000006', email: 'linus@example.com', labels: ['lead'] },
    { channel: 'sales', name: 'Margaret Hamilton', phone: '15550000007', email: 'margaret@example.com' },
  ],
  templates: [
    { ref: 'order', channel: 'support', name: 'order_update', category: 'UTILITY', language: 'en_US', status: 'approved', body: 'Hi {{1}}, your order {{2}} has shipped.' },
    { channel: 'support', name: 'welcome', category: 'MARKETING', language: 'en_US', status: 'approved', body: 'Welcome to Demo Co, {{1}}!' },
    { channel: 'support', name: 'spring_sale', category: 'MARKETING', language: 'en_US', status: 'pending', body: 'Spring sale: {{1}} off' },
    { channel: 'sales', name: 'follow_up', category: 'UTILITY', language: 'en_US', status: 'approved', body: 'Hi {{1}}, following up on our call.' },
  ],
  automations: [
    { channel: 'support', name: 'Welcome new contacts', status: 'active', executionCount: 42 },
    { channel: 'support', name: 'Out of office reply', status: 'paused', executionCount: 7 },
  ],
  messages: [{ channel: 'support', msgid: 'wamid.DEMO0001', to: '15550000001', status: 'delivered', direction: 'outbound', type: 'text' }],
  plans: [
    { ref: 'starter', platform: 'demo', name: 'Starter', itemType: 'plan', prices: { monthly: 19, annual: 190 } },
    { ref: 'pro', platform: 'demo', name: 'Pro', itemType: 'plan', prices: { monthly: 49, quarterly: 139, annual: 490 } },
    { ref: 'seats', platform: 'demo', name: 'Extra seats', itemType: 'addon', prices: { monthly: 5, annual: 50, onetime: 20 } },
  ],
  subscriptions: [{ user: 'owner', plan: 'pro', status: 'active', billingCycle: 'monthly' }],
  tickets: [
    { ref: 'welcome', platform: 'demo', email: 'customer@example.com', title: 'Cannot log in', description: 'The login page rejects my password.', status: 'open', priority: 'high' },
  ],
};

/** Loads the demo data when the database has no platform yet; returns what was created, or null. */
export async function seedDemoIfEmpty(em: EntityManager): Promise<SeedResult | null> {
  if (await em.count(Platform, {})) return null;
  return seed(em, demoSeed);
}
