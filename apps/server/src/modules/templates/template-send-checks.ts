import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldIssue } from '../../kit/errors.js';
import { listCustomFields } from '../custom-fields/index.js';
import { placeholderCustomFields, unknownPlaceholders } from './template-placeholders.js';
import { Template } from './template.entity.js';

type CustomFields = Awaited<ReturnType<typeof listCustomFields>>;

/**
 * Placeholders naming custom fields the channel does not have; `unchecked`: also those naming nothing (a text the
 * contract's placeholderText did not check, as an interactive message's).
 */
export function placeholderIssues(
  customFields: CustomFields,
  path: string,
  text: string,
  unchecked = false,
): FieldIssue[] {
  const unknown = unchecked ? unknownPlaceholders(text) : [];
  return [
    ...unknown.map((placeholder) => ({
      field: path,
      problem: `unknown placeholder ${placeholder}: use {{contact.name}}, {{contact.phone}} or {{customField.<name>}}`,
    })),
    ...placeholderCustomFields(text)
      .filter((name) => !customFields.some((field) => field.name === name))
      .map((name) => ({
        field: path,
        problem: `unknown placeholder {{customField.${name}}}: no such custom field in this channel`,
      })),
  ];
}

/** A template send as an automation action or a broadcast names it. */
export interface TemplateSendDefinition {
  templateName: string;
  language?: string | undefined;
  variables: readonly string[];
}

/**
 * What a template send (an automation's action, a broadcast) refuses before it is stored: a template that is not an
 * approved one of the channel, a name in several languages without one, a variable count other than the template's,
 * placeholders naming custom fields the channel does not have. Fields are named under `path` ('' for top level).
 */
export async function templateSendIssues(
  tx: EntityManager,
  channelId: string,
  path: string,
  send: TemplateSendDefinition,
  customFields?: CustomFields,
): Promise<FieldIssue[]> {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  const templates = await tx.find(
    Template,
    {
      channel: channelId,
      name: send.templateName,
      status: 'approved',
      ...(send.language === undefined ? {} : { language: send.language }),
    },
    { fields: ['language', 'variableCount'] },
  );
  const fields = customFields ?? (await listCustomFields({ em: tx }, channelId));
  const issues = send.variables.flatMap((text, i) => placeholderIssues(fields, at(`variables.${i}`), text));
  if (templates.length === 0)
    return [{ field: at('templateName'), problem: 'no approved template with this name in this channel' }];
  if (templates.length > 1)
    return [{ field: at('language'), problem: `is required: the template exists in several languages` }];
  const expected = templates[0]!.variableCount;
  if (send.variables.length !== expected)
    issues.push({ field: at('variables'), problem: `the template expects ${expected}, got ${send.variables.length}` });
  return issues;
}
