import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { exampleChannelId } from '../channels/index.js';
import { SESSION_WINDOWS } from '../sending/index.js';
import { automationTriggerTask } from './automation-engine.js';
import { runRetention } from './automation-retention.js';
import { AutomationRun } from './automation-run.entity.js';
import { Automation } from './automation.entity.js';
import { automationsRouter } from './automation.router.js';
import { automationsSeed } from './automation.seed.js';

/**
 * Automations: rules on a channel's events (a customer's message, a contact created or labeled) that check
 * conditions and act (messages, labels, custom fields), each (automation, event) once, with a run log.
 */
export const automationsModule = defineModule({
  name: 'automations',
  entities: [Automation, AutomationRun],
  routes: [routes(contract.workspace.automations, automationsRouter)],
  seed: [automationsSeed],
  examples: {
    automationId: {
      demo: 'automations.hours',
      // In the channel the examples' channelId is.
      of: async (em, viewer) => {
        const channelId = await exampleChannelId(em, viewer);
        if (!channelId) return undefined;
        const newest = await em.findOne(
          Automation,
          { channel: channelId },
          { fields: ['id'], orderBy: { createdAt: 'desc', id: 'desc' } },
        );
        return newest?.id;
      },
    },
  },
  jobs: ({ services }) => ({
    targets: [],
    tasks: [automationTriggerTask(services.get(SESSION_WINDOWS))],
    workers: [runRetention],
  }),
  demo: {
    automations: [
      {
        ref: 'hours',
        channel: 'support',
        name: 'Opening hours',
        status: 'active',
        trigger: { event: 'message.received' },
        conditions: [{ field: 'text', operator: 'contains', value: 'hours' }],
        actions: [{ type: 'send_text', text: 'Hi {{contact.name}}! We are open Monday to Friday, 9:00–17:00.' }],
      },
      // A customer who writes "order" gets two reply buttons; tapping "Track order" runs the next automation.
      {
        channel: 'support',
        name: 'Order help',
        status: 'active',
        trigger: { event: 'message.received' },
        conditions: [{ field: 'text', operator: 'equals', value: 'order' }],
        actions: [
          {
            type: 'send_interactive',
            interactive: {
              kind: 'buttons',
              body: 'Hi {{contact.name}}! How can we help with your order?',
              buttons: [
                { id: 'track_order', title: 'Track order' },
                { id: 'talk_to_us', title: 'Talk to us' },
              ],
            },
          },
        ],
      },
      {
        channel: 'support',
        name: 'Track order',
        status: 'active',
        trigger: { event: 'message.received' },
        conditions: [{ field: 'reply', operator: 'equals', value: 'track_order' }],
        actions: [
          { type: 'send_reaction', emoji: '👍' },
          { type: 'send_text', text: 'Your order A-1001 has shipped: it arrives tomorrow before 12:00.' },
        ],
      },
      {
        channel: 'support',
        name: 'Welcome new contacts',
        // Paused, so the README's first run shows only the replies of "Opening hours" and "Order help".
        status: 'paused',
        trigger: { event: 'contact.created' },
        conditions: [],
        actions: [{ type: 'send_template', templateName: 'welcome', variables: ['{{contact.name}}'] }],
      },
      {
        channel: 'support',
        name: 'Out of office reply',
        status: 'paused',
        trigger: { event: 'message.received' },
        conditions: [{ field: 'firstMessage', operator: 'is', value: true }],
        actions: [{ type: 'send_text', text: 'Thanks {{contact.name}}, we are out of the office and reply tomorrow.' }],
      },
    ],
  },
});
