export * from './automations.js';
export * from './channels.js';
export * from './contacts.js';
export * from './conversations.js';
export * from './custom-fields.js';
export * from './labels.js';
export * from './messages.js';
export * from './templates.js';
