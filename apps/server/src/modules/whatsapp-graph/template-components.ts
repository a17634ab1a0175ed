import type { TemplateDraft, TemplateDraftButton, TemplateDraftHeader } from '../messages/index.js';

/**
 * A template draft as Meta's `message_templates` takes it (WhatsApp Business Management API): components HEADER,
 * BODY, FOOTER and BUTTONS, each variable with its sample under `example`.
 */
export function templateComponents(draft: TemplateDraft): Record<string, unknown>[] {
  const components: Record<string, unknown>[] = [];
  if (draft.header) components.push(headerComponent(draft.header));
  components.push({
    type: 'BODY',
    text: draft.body,
    ...(draft.bodyExamples.length > 0 ? { example: { body_text: [draft.bodyExamples] } } : {}),
  });
  if (draft.footer !== null) components.push({ type: 'FOOTER', text: draft.footer });
  if (draft.buttons.length > 0) components.push({ type: 'BUTTONS', buttons: draft.buttons.map(buttonOf) });
  return components;
}

function headerComponent(header: TemplateDraftHeader): Record<string, unknown> {
  const format = header.format.toUpperCase();
  if (header.format === 'text') {
    return {
      type: 'HEADER',
      format,
      text: header.text,
      ...(header.example === undefined ? {} : { example: { header_text: [header.example] } }),
    };
  }
  if (header.format === 'location') return { type: 'HEADER', format };
  return { type: 'HEADER', format, example: { header_handle: [header.example ?? ''] } };
}

function buttonOf(button: TemplateDraftButton): Record<string, unknown> {
  switch (button.type) {
    case 'quick_reply':
      return { type: 'QUICK_REPLY', text: button.text };
    case 'url':
      return {
        type: 'URL',
        text: button.text,
        url: button.url,
        ...(button.example === undefined ? {} : { example: [button.example] }),
      };
    case 'phone_number':
      return { type: 'PHONE_NUMBER', text: button.text, phone_number: button.phoneNumber };
    case 'copy_code':
      return { type: 'COPY_CODE', example: button.example ?? '' };
  }
}
