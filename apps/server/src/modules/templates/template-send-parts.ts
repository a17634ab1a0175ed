import type { FieldProblem, TemplateSendButton, TemplateSendHeader } from '@switchboard/contract';
import type { OutboundTemplateButton, OutboundTemplateParts } from '../messages/index.js';
import type { StoredButton, StoredHeader } from './template-parts.js';

/** File name endings a media header's link may have, per format; a link without a known ending is taken as it is. */
const ENDINGS: Record<string, readonly string[]> = {
  image: ['jpg', 'jpeg', 'png'],
  video: ['mp4', '3gp'],
  document: ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt'],
};
const ALL_ENDINGS = new Set(Object.values(ENDINGS).flat());

const endingOf = (url: string) => new URL(url).pathname.split('.').at(-1)?.toLowerCase() ?? '';

function headerValue(
  header: StoredHeader | null,
  given: TemplateSendHeader | undefined,
): { header?: OutboundTemplateParts['header']; problem?: string } {
  if (header === null || header.format === 'location') {
    if (given === undefined) return {};
    return { problem: header ? 'location headers cannot be sent with a value' : 'is not taken: the template has none' };
  }
  if (header.format === 'text') {
    const needs = /\{\{\s*1\s*\}\}/.test(header.text);
    if (!needs) return given ? { problem: 'is not taken: the template’s text header has no variable' } : {};
    if (given?.text === undefined) return { problem: 'needs {text}: the template’s text header has a variable' };
    return { header: { format: 'text', text: given.text } };
  }
  if (given?.mediaUrl === undefined)
    return { problem: `needs {mediaUrl}: the template has a media header (${header.format})` };
  const ending = endingOf(given.mediaUrl);
  if (ALL_ENDINGS.has(ending) && !ENDINGS[header.format]!.includes(ending))
    return { problem: `must be a file of the template’s header format (${header.format}), not .${ending}` };
  return { header: { format: header.format, mediaUrl: given.mediaUrl } };
}

/** What a template button takes from a send: a value it needs, one it may have, or none. */
function buttonNeed(button: StoredButton): 'required' | 'optional' | 'none' {
  if (button.type === 'copy_code') return 'required';
  if (button.type === 'url') return /\{\{\s*1\s*\}\}$/.test(button.url) ? 'required' : 'none';
  return button.type === 'quick_reply' ? 'optional' : 'none';
}

function buttonValues(buttons: StoredButton[], given: TemplateSendButton[]) {
  const problems: FieldProblem[] = [];
  const values: OutboundTemplateButton[] = [];
  given.forEach(({ index, value }, position) => {
    const button = buttons[index];
    const field = `buttons.${position}.index`;
    if (!button)
      problems.push({ field, problem: `the template has ${buttons.length} buttons (0–${buttons.length - 1})` });
    else if (given.findIndex((other) => other.index === index) !== position)
      problems.push({ field, problem: `button ${index} is given twice` });
    else if (buttonNeed(button) === 'none')
      problems.push({ field, problem: `button ${index} (${button.type}) takes no value` });
    else values.push({ index, type: button.type as OutboundTemplateButton['type'], value });
  });
  buttons.forEach((button, index) => {
    if (buttonNeed(button) === 'required' && !given.some((g) => g.index === index))
      problems.push({ field: 'buttons', problem: `needs a value for button ${index} (${button.type})` });
  });
  return { values, problems };
}

/**
 * A send's header and button values checked against the template (before any provider call, so Meta never answers
 * 132000/132012): what the provider gets, or the problems, each naming its field.
 */
export function templateSendParts(
  template: { header: StoredHeader | null; buttons: StoredButton[] },
  send: { header?: TemplateSendHeader | undefined; buttons?: TemplateSendButton[] | undefined },
): { parts: OutboundTemplateParts; problems: FieldProblem[] } {
  const header = headerValue(template.header, send.header);
  const buttons = buttonValues(template.buttons, send.buttons ?? []);
  const problems = [...(header.problem ? [{ field: 'header', problem: header.problem }] : []), ...buttons.problems];
  const parts: OutboundTemplateParts = {
    ...(header.header ? { header: header.header } : {}),
    ...(buttons.values.length > 0 ? { buttons: buttons.values } : {}),
  };
  return { parts, problems };
}
