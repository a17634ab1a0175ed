import type { AutomationCondition } from '@switchboard/contract';
import type { PlaceholderContact } from '../templates/index.js';

type CustomFieldValue = PlaceholderContact['customFields'][string];

/** What conditions and placeholders read: the contact as it is when the run starts, and the triggering message. */
export interface RunFacts {
  contact: PlaceholderContact;
  labelIds: ReadonlySet<string>;
  /** The message's text (`message.received`), null when it has none or the event is not a message. */
  text: string | null;
  /** The id of the reply button or list row tapped (`message.received`), null when the message is not a tap. */
  reply: string | null;
  /** Whether the contact had sent no message on the channel before the event (computed only when a rule asks). */
  firstMessage: boolean;
}

const isSet = (value: CustomFieldValue | undefined) => value !== undefined && value !== null;

function holds(condition: AutomationCondition, facts: RunFacts): boolean {
  switch (condition.field) {
    case 'text': {
      if (facts.text === null) return false;
      const text = facts.text.toLowerCase();
      const value = condition.value.toLowerCase();
      if (condition.operator === 'equals') return text === value;
      if (condition.operator === 'startsWith') return text.startsWith(value);
      return text.includes(value);
    }
    case 'reply':
      return facts.reply === condition.value;
    case 'label':
      return facts.labelIds.has(condition.value) === (condition.operator === 'has');
    case 'customField': {
      const stored = facts.contact.customFields[condition.name];
      if (condition.operator === 'isSet') return isSet(stored);
      if (condition.operator === 'isNotSet') return !isSet(stored);
      return isSet(stored) && stored === condition.value;
    }
    case 'firstMessage':
      return facts.firstMessage === condition.value;
  }
}

/** All must hold (none: they hold). */
export const conditionsHold = (conditions: readonly AutomationCondition[], facts: RunFacts) =>
  conditions.every((condition) => holds(condition, facts));
