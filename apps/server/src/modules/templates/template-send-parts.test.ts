import { describe, expect, it } from 'vitest';
import { templateSendParts } from './template-send-parts.js';

const template = {
  header: { format: 'image' as const, example: '4::h' },
  buttons: [
    { type: 'url' as const, text: 'Track', url: 'https://acme.test/t/{{1}}' },
    { type: 'quick_reply' as const, text: 'Stop' },
    { type: 'phone_number' as const, text: 'Call', phoneNumber: '+15550100000' },
  ],
};

describe('templateSendParts', () => {
  it('hands the provider the header file and the button values with their kinds', () => {
    expect(
      templateSendParts(template, {
        header: { mediaUrl: 'https://acme.test/banner.png' },
        buttons: [
          { index: 0, value: 'A-1001' },
          { index: 1, value: 'stop-payload' },
        ],
      }),
    ).toEqual({
      parts: {
        header: { format: 'image', mediaUrl: 'https://acme.test/banner.png' },
        buttons: [
          { index: 0, type: 'url', value: 'A-1001' },
          { index: 1, type: 'quick_reply', value: 'stop-payload' },
        ],
      },
      problems: [],
    });
  });

  it('names each missing or wrong value', () => {
    expect(templateSendParts(template, {}).problems).toEqual([
      { field: 'header', problem: 'needs {mediaUrl}: the template has a media header (image)' },
      { field: 'buttons', problem: 'needs a value for button 0 (url)' },
    ]);
    expect(
      templateSendParts(template, {
        header: { mediaUrl: 'https://acme.test/terms.pdf' },
        buttons: [
          { index: 0, value: 'x' },
          { index: 2, value: 'y' },
          { index: 5, value: 'z' },
          { index: 0, value: 'again' },
        ],
      }).problems,
    ).toEqual([
      { field: 'header', problem: 'must be a file of the template’s header format (image), not .pdf' },
      { field: 'buttons.1.index', problem: 'button 2 (phone_number) takes no value' },
      { field: 'buttons.2.index', problem: 'the template has 3 buttons (0–2)' },
      { field: 'buttons.3.index', problem: 'button 0 is given twice' },
    ]);
  });

  it('takes a text header’s variable, and nothing for a template without header or buttons', () => {
    const text = { header: { format: 'text' as const, text: 'Order {{1}}' }, buttons: [] };
    expect(templateSendParts(text, { header: { text: 'A-1001' } }).parts).toEqual({
      header: { format: 'text', text: 'A-1001' },
    });
    expect(templateSendParts({ header: null, buttons: [] }, {})).toEqual({ parts: {}, problems: [] });
    expect(templateSendParts({ header: null, buttons: [] }, { header: { text: 'x' } }).problems).toEqual([
      { field: 'header', problem: 'is not taken: the template has none' },
    ]);
  });
});
