import { randomBytes } from 'node:crypto';
import type { SeedFile, SeedResult } from '@switchboard/server';
import type { TestServer } from './server.js';

export interface Tenant {
  platformId: string;
  /** Platform-level access, every platform permission, authorized for both channels. */
  ownerKey: string;
  ownerId: string;
  /** No platform access; authorized for the main channel only. */
  memberKey: string;
  memberId: string;
  /** Platform access but no platform:* permission. */
  auditorKey: string;
  /** No channel at all. */
  lonelyKey: string;
  mainChannelId: string;
  secondChannelId: string;
  msgid: string;
  /** Ada's question on the main channel, just now: her 24-hour window is open. */
  inboundMsgid: string;
  /** A photo Ada sent before her question, read already (a sandbox file: chat/media/get serves a placeholder). */
  mediaMsgid: string;
  ids: SeedResult;
}

/**
 * One tenant with the shapes the rules need: a user with one channel, one with two, one with none, one with
 * platform access, plus data in every workspace and platform table. Names are unique per call.
 */
export function tenantSeed(name: string): SeedFile {
  const tag = randomBytes(4).toString('hex');
  return {
    platforms: [{ ref: 'p', name, domain: `${name.toLowerCase()}-${tag}.example.com` }],
    users: [
      {
        ref: 'owner',
        platform: 'p',
        email: `owner@${tag}.example.com`,
        name: `${name} Owner`,
        role: 'owner',
        platformAccess: true,
        permissions: ['platform:view', 'platform:edit', 'platform:manage', 'settings:api'],
        apiKey: true,
      },
      { ref: 'member', platform: 'p', email: `member@${tag}.example.com`, name: `${name} Member`, apiKey: true },
      {
        ref: 'auditor',
        platform: 'p',
        email: `auditor@${tag}.example.com`,
        name: `${name} Auditor`,
        platformAccess: true,
        permissions: ['settings:api'],
        apiKey: true,
      },
      { ref: 'lonely', platform: 'p', email: `lonely@${tag}.example.com`, name: `${name} Lonely`, apiKey: true },
      { ref: 'admin', platform: 'p', email: `admin@${tag}.example.com`, name: `${name} Admin`, role: 'admin' },
    ],
    channels: [
      { ref: 'main', platform: 'p', name: `${name} Main`, phone: '15550001111', users: ['owner', 'member', 'auditor'] },
      { ref: 'second', platform: 'p', name: `${name} Second`, phone: '15550002222', users: ['owner'] },
    ],
    labels: [
      { channel: 'main', name: 'vip', description: 'Top customers', color: '#ff8800', sortOrder: 1 },
      { channel: 'main', name: 'new', color: '#22aa55', sortOrder: 0 },
      { channel: 'second', name: 'lead', color: '#3366ff' },
    ],
    customFields: [
      { channel: 'main', name: 'Age', type: 'number', displayOrder: 1 },
      { channel: 'main', name: 'Plan', type: 'select', options: ['free', 'pro'], displayOrder: 2 },
    ],
    contacts: [
      {
        ref: 'ada',
        channel: 'main',
        name: 'Ada Lovelace',
        phone: '15550000001',
        email: 'ada@example.com',
        labels: ['vip'],
        customFields: { Age: 36, Plan: 'pro' },
      },
      {
        ref: 'grace',
        channel: 'main',
        name: 'Grace Hopper',
        phone: '15550000002',
        email: null,
        labels: ['vip', 'new'],
      },
      { ref: 'alan', channel: 'main', name: 'Alan Turing', phone: '447700900003' },
      { ref: 'linus', channel: 'second', name: 'Linus Torvalds', phone: '358400000006' },
    ],
    templates: [
      {
        ref: 'order',
        channel: 'main',
        name: 'order_update',
        category: 'UTILITY',
        language: 'en_US',
        status: 'approved',
        body: 'Hi {{1}}, order {{2}} shipped',
      },
      {
        ref: 'promo',
        channel: 'main',
        name: 'promo',
        category: 'MARKETING',
        language: 'en_US',
        status: 'pending',
        body: 'Sale {{1}}',
      },
      {
        ref: 'follow',
        channel: 'second',
        name: 'follow_up',
        category: 'UTILITY',
        language: 'en_US',
        status: 'approved',
        body: 'Hi {{1}}',
      },
    ],
    broadcasts: [
      {
        ref: 'launch',
        channel: 'main',
        name: 'Launch',
        templateName: 'order_update',
        variables: ['{{contact.name}}', 'A-1'],
        audience: { all: true },
        status: 'completed',
      },
    ],
    automations: [
      { ref: 'welcome', channel: 'main', name: 'Welcome', status: 'active', executionCount: 3 },
      { channel: 'second', name: 'Nurture', status: 'paused', executionCount: 0 },
    ],
    messages: [
      {
        ref: 'm1',
        channel: 'main',
        msgid: `wamid.${tag}`,
        to: '15550000001',
        status: 'delivered',
        direction: 'outbound',
        type: 'text',
      },
      {
        ref: 'question',
        channel: 'main',
        msgid: `wamid.in${tag}`,
        direction: 'inbound',
        from: '15550000001',
        text: 'Where is my order?',
      },
      {
        ref: 'photo',
        channel: 'main',
        msgid: `wamid.img${tag}`,
        direction: 'inbound',
        from: '15550000001',
        type: 'image',
        status: 'read',
        text: 'The box',
        media: { mediaId: `media-${tag}`, mimeType: 'image/jpeg', caption: 'The box' },
        createdAt: new Date(Date.now() - 10 * 60_000).toISOString(),
      },
    ],
    plans: [
      { ref: 'pro', platform: 'p', name: 'Pro', itemType: 'plan', prices: { monthly: 49, annual: 490 } },
      {
        ref: 'seats',
        platform: 'p',
        name: 'Extra seats',
        itemType: 'addon',
        prices: { monthly: 5, annual: 50, onetime: 20 },
      },
    ],
    subscriptions: [{ user: 'owner', plan: 'pro', status: 'active', billingCycle: 'monthly' }],
    tickets: [
      {
        ref: 't1',
        platform: 'p',
        email: `customer@${tag}.example.com`,
        title: 'Cannot log in',
        description: 'Password rejected',
        priority: 'high',
      },
    ],
  };
}

export async function createTenant(server: TestServer, name: string): Promise<Tenant> {
  const file = tenantSeed(name);
  const ids = await server.seed(file);
  const key = (ref: string) => ids.users![ref]!.apiKey!;
  return {
    platformId: ids.platforms!.p!,
    ownerKey: key('owner'),
    ownerId: ids.users!.owner!.id,
    memberKey: key('member'),
    memberId: ids.users!.member!.id,
    auditorKey: key('auditor'),
    lonelyKey: key('lonely'),
    mainChannelId: ids.channels!.main!,
    secondChannelId: ids.channels!.second!,
    msgid: file.messages![0]!.msgid,
    inboundMsgid: file.messages![1]!.msgid,
    mediaMsgid: file.messages![2]!.msgid,
    ids,
  };
}
