import type { Interactive } from '@switchboard/contract';

type Header = NonNullable<Interactive['header']>;

/** A header in Meta's shape: `{type: "text", text}`, or a file by public link (Meta fetches it). */
const metaHeader = (header: Header) =>
  'text' in header
    ? { type: 'text', text: header.text }
    : { type: header.type, [header.type]: { link: header.mediaUrl } };

/**
 * Graph's `interactive` object (Meta's Cloud API reference, "Interactive messages"; WHATSAPP-CLOUD.md): reply
 * buttons are `type: "button"` with `action.buttons[].reply`, a list `type: "list"` with `action{button, sections}`,
 * a link button `type: "cta_url"` with `action{name: "cta_url", parameters{display_text, url}}`.
 */
export function metaInteractive(interactive: Interactive) {
  const common = {
    ...(interactive.header && { header: metaHeader(interactive.header) }),
    body: { text: interactive.body },
    ...(interactive.footer !== undefined && { footer: { text: interactive.footer } }),
  };
  switch (interactive.kind) {
    case 'buttons':
      return {
        type: 'button',
        ...common,
        action: { buttons: interactive.buttons.map(({ id, title }) => ({ type: 'reply', reply: { id, title } })) },
      };
    case 'list':
      return {
        type: 'list',
        ...common,
        action: {
          button: interactive.button,
          sections: interactive.sections.map((section) => ({
            ...(section.title !== undefined && { title: section.title }),
            rows: section.rows.map((row) => ({
              id: row.id,
              title: row.title,
              ...(row.description !== undefined && { description: row.description }),
            })),
          })),
        },
      };
    case 'cta_url':
      return {
        type: 'cta_url',
        ...common,
        action: { name: 'cta_url', parameters: { display_text: interactive.displayText, url: interactive.url } },
      };
  }
}
