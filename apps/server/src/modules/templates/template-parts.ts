import type { Template, TemplateButton, TemplateHeader } from '@switchboard/contract';
import type { TemplateDraftButton, TemplateDraftHeader } from '../messages/index.js';

/**
 * A header as stored: what the API shows, plus its sample for Meta's review (a text header's variable value, or a
 * media header's upload handle), which an edit sends again when the header itself is not changed.
 */
export type StoredHeader = TemplateDraftHeader;
/** A button as stored: what the API shows, plus its sample (a URL variable's filled URL, a copy code). */
export type StoredButton = TemplateDraftButton;

/** A template's parts without the samples that only Meta's reviewers see. */
export function publicParts(row: { header: StoredHeader | null; buttons: StoredButton[] }) {
  const { header, buttons } = row;
  return {
    header: header === null ? null : (withoutExample(header) as TemplateHeader),
    buttons: buttons.map((button) => withoutExample(button) as TemplateButton),
  } satisfies Pick<Template, 'header' | 'buttons'>;
}

function withoutExample(part: object) {
  const { example: _example, mediaUrl: _mediaUrl, ...shown } = part as { example?: string; mediaUrl?: string };
  return shown;
}
