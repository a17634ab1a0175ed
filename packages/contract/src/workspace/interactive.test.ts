import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract } from '../index.js';

/** The send as the server parses it (strict, with its field rules): each refusal as `path: problem`. */
function refusals(params: Record<string, unknown>): string[] {
  const parsed = contract.workspace.chat.message.send.post.body.safeParse({ to: '15550000001', ...params });
  if (parsed.success) return [];
  return parsed.error.issues.map((issue: z.ZodIssue) => `${issue.path.join('.')}: ${issue.message}`);
}

const x = (length: number) => 'x'.repeat(length);
const buttons = (overrides: Record<string, unknown> = {}) => ({
  type: 'interactive',
  interactive: {
    kind: 'buttons',
    body: 'Your order?',
    buttons: [
      { id: 'track', title: 'Track order' },
      { id: 'talk', title: 'Talk to us' },
    ],
    ...overrides,
  },
});
const rows = (count: number, prefix = 'r') =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}` }));
const list = (overrides: Record<string, unknown> = {}) => ({
  type: 'interactive',
  interactive: { kind: 'list', body: 'Pick one', button: 'Options', sections: [{ rows: rows(2) }], ...overrides },
});
const cta = (overrides: Record<string, unknown> = {}) => ({
  type: 'interactive',
  interactive: { kind: 'cta_url', body: 'Track it', displayText: 'Track', url: 'https://shop.example/t', ...overrides },
});

describe('chat/message/send: interactive, reaction and location limits (Meta’s), each named by its path', () => {
  it('accepts each kind at its limits', () => {
    const three = [0, 1, 2].map((i) => ({ id: x(255) + i, title: x(19) + i }));
    expect(refusals(buttons({ body: x(1024), footer: x(60), header: { text: x(60) }, buttons: three }))).toEqual([]);
    expect(refusals(buttons({ header: { type: 'image', mediaUrl: 'https://shop.example/a.png' } }))).toEqual([]);
    expect(
      refusals(
        list({
          body: x(4096),
          header: { text: x(60) },
          button: x(20),
          sections: [
            { title: x(24), rows: [{ id: x(200), title: x(24), description: x(72) }, ...rows(4)] },
            { title: 'More', rows: rows(5, 's') },
          ],
        }),
      ),
    ).toEqual([]);
    expect(
      refusals(cta({ displayText: x(20), header: { type: 'document', mediaUrl: 'https://a.example/b' } })),
    ).toEqual([]);
    expect(refusals({ type: 'reaction', reaction: { msgid: 'wamid.A', emoji: '👍🏽' } })).toEqual([]);
    expect(refusals({ type: 'reaction', reaction: { msgid: 'wamid.A', emoji: '' } })).toEqual([]);
    expect(
      refusals({ type: 'location', location: { latitude: -90, longitude: 180, name: 'HQ', address: 'Dam 1' } }),
    ).toEqual([]);
  });

  it('refuses reply buttons past each limit', () => {
    const four = [0, 1, 2, 3].map((i) => ({ id: `b${i}`, title: `B${i}` }));
    expect(refusals(buttons({ buttons: four }))).toEqual(['interactive.buttons: must list at most 3 buttons']);
    expect(refusals(buttons({ buttons: [] }))).toEqual(['interactive.buttons: must list at least 1 button']);
    expect(
      refusals(
        buttons({
          buttons: [
            { id: 'a', title: 'A' },
            { id: 'b', title: x(21) },
          ],
        }),
      ),
    ).toEqual(['interactive.buttons.1.title: must be at most 20 characters']);
    expect(refusals(buttons({ buttons: [{ id: x(257), title: 'A' }] }))).toEqual([
      'interactive.buttons.0.id: must be at most 256 characters',
    ]);
    expect(
      refusals(
        buttons({
          buttons: [
            { id: 'a', title: 'Same' },
            { id: 'b', title: 'Same' },
          ],
        }),
      ),
    ).toEqual(['interactive.buttons.1.title: must be unique (button 0 has it too)']);
    expect(
      refusals(
        buttons({
          buttons: [
            { id: 'a', title: 'A' },
            { id: 'a', title: 'B' },
          ],
        }),
      ),
    ).toEqual(['interactive.buttons.1.id: must be unique (button 0 has it too)']);
    expect(refusals(buttons({ body: x(1025) }))).toEqual(['interactive.body: must be at most 1024 characters']);
    expect(refusals(buttons({ footer: x(61) }))).toEqual(['interactive.footer: must be at most 60 characters']);
    expect(refusals(buttons({ header: { text: x(61) } }))).toEqual([
      'interactive.header.text: must be at most 60 characters',
    ]);
    expect(refusals(buttons({ header: { type: 'image', mediaUrl: 'http://a.example/b.png' } }))).toEqual([
      'interactive.header.mediaUrl: must be an https:// URL',
    ]);
    expect(refusals(buttons({ buttons: undefined }))).toEqual(['interactive.buttons: Required']);
  });

  it('refuses a list past each limit', () => {
    expect(refusals(list({ body: x(4097) }))).toEqual(['interactive.body: must be at most 4096 characters']);
    expect(refusals(list({ button: x(21) }))).toEqual(['interactive.button: must be at most 20 characters']);
    expect(refusals(list({ header: { type: 'image', mediaUrl: 'https://a.example/b.png' } }))[0]).toMatch(
      /^interactive\.header/,
    );
    expect(refusals(list({ sections: [] }))).toEqual(['interactive.sections: must list at least 1 section']);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ title: `S${i}`, rows: rows(1, `s${i}-`) }));
    expect(refusals(list({ sections: eleven })).slice(0, 1)).toEqual([
      'interactive.sections: must list at most 10 sections',
    ]);
    expect(
      refusals(
        list({
          sections: [
            { title: 'A', rows: rows(6) },
            { title: 'B', rows: rows(5, 's') },
          ],
        }),
      ),
    ).toEqual(['interactive.sections: must hold at most 10 rows in all (11)']);
    expect(refusals(list({ sections: [{ rows: [{ id: 'a', title: x(25) }] }] }))).toEqual([
      'interactive.sections.0.rows.0.title: must be at most 24 characters',
    ]);
    expect(refusals(list({ sections: [{ rows: [{ id: x(201), title: 'A' }] }] }))).toEqual([
      'interactive.sections.0.rows.0.id: must be at most 200 characters',
    ]);
    expect(refusals(list({ sections: [{ rows: [{ id: 'a', title: 'A', description: x(73) }] }] }))).toEqual([
      'interactive.sections.0.rows.0.description: must be at most 72 characters',
    ]);
    expect(refusals(list({ sections: [{ title: x(25), rows: rows(1) }] }))).toEqual([
      'interactive.sections.0.title: must be at most 24 characters',
    ]);
    expect(refusals(list({ sections: [{ title: 'A', rows: rows(1) }, { rows: rows(1, 's') }] }))).toEqual([
      'interactive.sections.1.title: is required when there are several sections',
    ]);
    expect(
      refusals(
        list({
          sections: [
            { title: 'A', rows: rows(1) },
            { title: 'B', rows: rows(1) },
          ],
        }),
      ),
    ).toEqual(['interactive.sections.1.rows.0.id: must be unique in the list']);
  });

  it('refuses a link button past each limit, and an unknown kind', () => {
    expect(refusals(cta({ displayText: x(21) }))).toEqual(['interactive.displayText: must be at most 20 characters']);
    expect(refusals(cta({ url: 'http://shop.example/t' }))).toEqual(['interactive.url: must be an https:// URL']);
    expect(refusals(cta({ url: undefined }))).toEqual(['interactive.url: is required']);
    expect(refusals(cta({ kind: 'carousel' }))[0]).toMatch(/^interactive\.kind: /);
  });

  it('refuses a reaction that is not one emoji, and a location off the globe', () => {
    expect(refusals({ type: 'reaction', reaction: { msgid: 'wamid.A', emoji: 'ok' } })).toEqual([
      'reaction.emoji: must be one emoji, or "" to remove the reaction',
    ]);
    expect(refusals({ type: 'reaction', reaction: { msgid: 'wamid.A', emoji: '👍👍' } })).toEqual([
      'reaction.emoji: must be one emoji, or "" to remove the reaction',
    ]);
    expect(refusals({ type: 'reaction', reaction: { emoji: '👍' } })).toEqual(['reaction.msgid: is required']);
    expect(refusals({ type: 'reaction', reaction: { msgid: 'wamid.A', emoji: '👍' }, replyTo: 'wamid.B' })).toEqual([
      'replyTo: is not for a reaction: reaction.msgid names the message',
    ]);
    expect(refusals({ type: 'location', location: { latitude: 91, longitude: 0 } })).toEqual([
      'location.latitude: must be at most 90',
    ]);
    expect(refusals({ type: 'location', location: { latitude: 0, longitude: -181 } })).toEqual([
      'location.longitude: must be at least -180',
    ]);
  });

  it('names the field a type needs, and a field of another type', () => {
    expect(refusals({ type: 'interactive' })).toEqual(['interactive: is required for type interactive']);
    expect(refusals({ type: 'location', text: 'Hi', location: { latitude: 1, longitude: 2 } })).toEqual([
      'text: is for type text',
    ]);
    expect(refusals({ text: 'Hi', reaction: { msgid: 'wamid.A', emoji: '👍' } })).toEqual([
      'reaction: is for type reaction',
    ]);
  });
});
