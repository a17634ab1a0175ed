import type { EntityManager } from '@mikro-orm/postgresql';
import {
  interactiveTexts,
  type AutomationAction,
  type AutomationCondition,
  type Automation as AutomationView,
} from '@switchboard/contract';
import type { FieldIssue } from '../../kit/errors.js';
import { checkCustomFieldValues, listCustomFields, type CustomFieldValues } from '../custom-fields/index.js';
import { Label } from '../labels/index.js';
import { placeholderIssues, templateSendIssues } from '../templates/index.js';

/** An automation as it will be stored, checked against the channel it belongs to. */
export interface AutomationDefinition {
  trigger: NonNullable<AutomationView['trigger']>;
  conditions: AutomationCondition[];
  actions: AutomationAction[];
}

type CustomFields = Awaited<ReturnType<typeof listCustomFields>>;

const LABEL_NOT_FOUND = 'label not found in this channel';

interface Channel {
  labelIds: ReadonlySet<string>;
  customFields: CustomFields;
  tx: EntityManager;
  channelId: string;
}

/** A condition's or action's field `name`, and its `value` when `check` says the value must fit the field. */
function customFieldIssues(
  channel: Channel,
  path: string,
  name: string,
  value: CustomFieldValues[string] | undefined,
  check: boolean,
) {
  if (!channel.customFields.some((field) => field.name === name))
    return [{ field: `${path}.name`, problem: `custom field "${name}" not found in this channel` }];
  if (!check || value === undefined) return [];
  return checkCustomFieldValues(channel.customFields, { [name]: value }, false).map((issue) => ({
    field: `${path}.value`,
    problem: issue.problem,
  }));
}

function conditionIssues(channel: Channel, definition: AutomationDefinition): FieldIssue[] {
  return definition.conditions.flatMap((condition, index) => {
    const path = `conditions.${index}`;
    switch (condition.field) {
      case 'text':
      case 'reply':
        return definition.trigger.event === 'message.received'
          ? []
          : [{ field: `${path}.field`, problem: `a ${condition.field} condition needs the message.received trigger` }];
      case 'label':
        return channel.labelIds.has(condition.value) ? [] : [{ field: `${path}.value`, problem: LABEL_NOT_FOUND }];
      case 'customField':
        if (condition.operator === 'equals' && condition.value === undefined)
          return [{ field: `${path}.value`, problem: 'is required for the equals operator' }];
        return customFieldIssues(channel, path, condition.name, condition.value, condition.operator === 'equals');
      case 'firstMessage':
        return [];
    }
  });
}

async function actionIssues(
  channel: Channel,
  trigger: AutomationDefinition['trigger']['event'],
  actions: readonly AutomationAction[],
): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  for (const [index, action] of actions.entries()) {
    const path = `actions.${index}`;
    switch (action.type) {
      case 'send_text':
        issues.push(...placeholderIssues(channel.customFields, `${path}.text`, action.text));
        break;
      case 'send_interactive':
        for (const { path: at, text } of interactiveTexts(action.interactive))
          issues.push(...placeholderIssues(channel.customFields, `${path}.interactive.${at}`, text, true));
        break;
      case 'send_reaction':
        if (trigger !== 'message.received')
          issues.push({ field: `${path}.type`, problem: 'send_reaction needs the message.received trigger' });
        break;
      case 'send_template':
        issues.push(...(await templateSendIssues(channel.tx, channel.channelId, path, action, channel.customFields)));
        break;
      case 'add_label':
      case 'remove_label':
        if (!channel.labelIds.has(action.labelId)) issues.push({ field: `${path}.labelId`, problem: LABEL_NOT_FOUND });
        break;
      case 'set_custom_field':
        issues.push(...customFieldIssues(channel, path, action.name, action.value, true));
    }
  }
  return issues;
}

/**
 * What automations/manage and the seed file refuse once the contract's schema has passed: references to labels,
 * custom fields and templates the channel does not have, and rules that cannot apply to the trigger. Each issue
 * names its field path (`actions.1.labelId`).
 */
export async function automationIssues(
  tx: EntityManager,
  channelId: string,
  definition: AutomationDefinition,
): Promise<FieldIssue[]> {
  const labels = await tx.find(Label, { channel: channelId }, { fields: ['id'] });
  const channel: Channel = {
    tx,
    channelId,
    labelIds: new Set(labels.map((label) => label.id)),
    customFields: await listCustomFields({ em: tx }, channelId),
  };
  const { trigger } = definition;
  const issues: FieldIssue[] = [];
  if (trigger.labelId !== undefined) {
    if (trigger.event !== 'contact.labeled')
      issues.push({ field: 'trigger.labelId', problem: 'applies to the contact.labeled trigger only' });
    else if (!channel.labelIds.has(trigger.labelId))
      issues.push({ field: 'trigger.labelId', problem: LABEL_NOT_FOUND });
  }
  return [
    ...issues,
    ...conditionIssues(channel, definition),
    ...(await actionIssues(channel, trigger.event, definition.actions)),
  ];
}
