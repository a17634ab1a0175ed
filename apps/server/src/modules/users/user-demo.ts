/** The demo owner's Developer Portal password (README, "Quick start"). */
export const DEMO_PASSWORD = 'switchboard-demo';

import type { z } from 'zod';
import type { usersSeed } from './user.seed.js';

/** The demo platform's owner (signs in to the portal; the api-keys module gives them a key) and an agent. */
export const usersDemo: z.input<typeof usersSeed.item>[] = [
  {
    ref: 'owner',
    platform: 'demo',
    email: 'owner@demo.switchboard.local',
    name: 'Olive Owner',
    role: 'owner',
    platformAccess: true,
    permissions: ['platform:view', 'platform:edit', 'platform:manage', 'settings:api'],
    password: DEMO_PASSWORD,
  },
  { ref: 'agent', platform: 'demo', email: 'agent@demo.switchboard.local', name: 'Avery Agent', role: 'admin' },
];
