export * from './platforms.js';
export * from './plans.js';
export * from './tickets.js';
export * from './users.js';
export * from './webhook-events.js';
export * from './webhooks.js';
