import type { EntityManager } from '@mikro-orm/postgresql';
import { mapInteractiveTexts, type AutomationAction, type AutomationRun } from '@switchboard/contract';
import { AppError } from '../../kit/errors.js';
import type { Logger } from '../../logger.js';
import { ContactLabel, Contact } from '../contacts/index.js';
import { checkCustomFieldValues, listCustomFields, mergeCustomFieldValues } from '../custom-fields/index.js';
import { Label } from '../labels/index.js';
import { sendSessionMessage, type SessionMessageInput, type SessionWindows } from '../sending/index.js';
import { fillPlaceholders, sendTemplate } from '../templates/index.js';
import type { RunFacts } from './automation-rules.js';

/** What one run's actions work with: the run's transaction, and the contact they act on. */
export interface ActionContext {
  tx: EntityManager;
  log: Logger;
  windows: SessionWindows;
  automationId: string;
  channelId: string;
  contactId: string;
  contact: RunFacts['contact'];
  /** The triggering message (`message.received`): what send_reaction reacts to. */
  messageId?: string;
}

type Step = AutomationRun['steps'][number];

/** A step that cannot be done (a label deleted since, a value its field no longer takes): the run stops there. */
class StepFailed extends Error {}

async function assertLabel(ctx: ActionContext, labelId: string) {
  const label = await ctx.tx.findOne(Label, { id: labelId, channel: ctx.channelId }, { fields: ['id'] });
  if (!label) throw new StepFailed('label not found in this channel (deleted since the automation was written?)');
}

async function setCustomField(ctx: ActionContext, name: string, value: RunFacts['contact']['customFields'][string]) {
  const definitions = await listCustomFields({ em: ctx.tx }, ctx.channelId);
  const issues = checkCustomFieldValues(definitions, { [name]: value }, false);
  if (issues.length) throw new StepFailed(issues.map((issue) => `${issue.field}: ${issue.problem}`).join('; '));
  const contact = await ctx.tx.findOneOrFail(Contact, ctx.contactId, { fields: ['customFields'] });
  contact.customFields = mergeCustomFieldValues(contact.customFields, { [name]: value });
  ctx.contact.customFields = contact.customFields;
  await ctx.tx.flush();
}

/**
 * Does one action. What it changes is not announced to automations (no trigger is queued), so an automation's own
 * labels and messages never start another run: rules cannot chain or loop.
 */
async function perform(ctx: ActionContext, action: AutomationAction): Promise<{ msgid?: string }> {
  switch (action.type) {
    case 'add_label':
      await assertLabel(ctx, action.labelId);
      await ctx.tx
        .createQueryBuilder(ContactLabel)
        .insert({ contact: ctx.contactId, label: action.labelId })
        .onConflict(['contact', 'label'])
        .ignore()
        .execute('run');
      return {};
    case 'remove_label':
      await assertLabel(ctx, action.labelId);
      await ctx.tx.nativeDelete(ContactLabel, { contact: ctx.contactId, label: action.labelId });
      return {};
    case 'set_custom_field':
      await setCustomField(ctx, action.name, action.value);
      return {};
    case 'send_template': {
      const sent = await sendTemplate(
        { em: ctx.tx, log: ctx.log },
        ctx.channelId,
        {
          to: ctx.contact.phone,
          templateName: action.templateName,
          language: action.language,
          variables: action.variables.map((text) => fillPlaceholders(text, ctx.contact)),
        },
        { automationId: ctx.automationId },
      );
      return { msgid: sent.msgid };
    }
    case 'send_text':
      return sendSession(ctx, { type: 'text', text: fillPlaceholders(action.text, ctx.contact) });
    case 'send_interactive':
      return sendSession(ctx, {
        type: 'interactive',
        interactive: mapInteractiveTexts(action.interactive, (text) => fillPlaceholders(text, ctx.contact)),
      });
    case 'send_reaction':
      if (!ctx.messageId) throw new StepFailed('no triggering message to react to');
      return sendSession(ctx, { type: 'reaction', reaction: { msgid: ctx.messageId, emoji: action.emoji } });
  }
}

/** A session message to the run's contact, through the send pipeline once the run commits. */
async function sendSession(
  ctx: ActionContext,
  message: Pick<SessionMessageInput, 'type' | 'text' | 'interactive' | 'reaction'>,
): Promise<{ msgid: string }> {
  const sent = await sendSessionMessage(
    { em: ctx.tx, log: ctx.log, windows: ctx.windows },
    { channelId: ctx.channelId, contactId: ctx.contactId, ...message } as SessionMessageInput,
    { automationId: ctx.automationId },
  );
  return { msgid: sent.msgid };
}

/**
 * The actions in order; the first that fails is recorded with its error and stops the run, the ones before it stay
 * done. A refusal the API would report (an AppError: the provider refused, the window is closed) or a StepFailed is
 * the step's failure; anything else (the database went away) is thrown, so the whole run rolls back and is retried.
 */
export async function performActions(ctx: ActionContext, actions: readonly AutomationAction[]): Promise<Step[]> {
  const steps: Step[] = [];
  for (const action of actions) {
    try {
      const { msgid } = await perform(ctx, action);
      steps.push({ type: action.type, outcome: 'succeeded', ...(msgid ? { msgid } : {}) });
    } catch (error) {
      if (!(error instanceof AppError || error instanceof StepFailed)) throw error;
      steps.push({ type: action.type, outcome: 'failed', error: error.message });
      break;
    }
  }
  return steps;
}
