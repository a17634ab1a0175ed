import { defineModule } from '../../kit/module.js';

export { emitEvent, emitEvents } from './emit.js';

/**
 * Emits the workspace's events (a contact created, a message's status, a ticket closed, …) to what consumes them:
 * the live event stream and the webhook deliveries. Every module that emits calls it, and names neither consumer.
 */
export const emitterModule = defineModule({ name: 'emitter', entities: [] });
