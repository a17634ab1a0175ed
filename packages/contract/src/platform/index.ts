export * from './addons.js';
export * from './platform.js';
export * from './subscriptions.js';
export * from './tickets.js';
export * from './users.js';
export * from './webhook-events.js';
export * from './webhooks.js';
