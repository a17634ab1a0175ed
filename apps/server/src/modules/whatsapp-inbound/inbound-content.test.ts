import { describe, expect, it } from 'vitest';
import { readContent } from './inbound-content.js';

const SHA = 'Vh0lBuM1zAHxV1qzVQkGvbXtQ6A7E3b6w3d8gfjz1Ms=';

describe('readContent: what an inbound message holds, by type', () => {
  it('reads the media fields of images, documents, audio, video and stickers; a caption is the text', () => {
    expect(
      readContent('image', { image: { id: 'm1', mime_type: 'image/jpeg', sha256: SHA, caption: 'The parcel' } }),
    ).toEqual({ text: 'The parcel', media: { id: 'm1', mimeType: 'image/jpeg', sha256: SHA, caption: 'The parcel' } });
    expect(
      readContent('document', {
        document: { id: 'm2', mime_type: 'application/pdf', sha256: SHA, filename: 'invoice.pdf' },
      }),
    ).toEqual({ media: { id: 'm2', mimeType: 'application/pdf', sha256: SHA, filename: 'invoice.pdf' } });
    expect(readContent('audio', { audio: { id: 'm3', mime_type: 'audio/ogg; codecs=opus', voice: true } })).toEqual({
      media: { id: 'm3', mimeType: 'audio/ogg; codecs=opus' },
    });
    expect(readContent('video', { video: { id: 'm4', mime_type: 'video/mp4', caption: '' } })).toEqual({
      media: { id: 'm4', mimeType: 'video/mp4', caption: '' },
    });
    expect(readContent('sticker', { sticker: { id: 'm5', mime_type: 'image/webp', animated: false } })).toEqual({
      media: { id: 'm5', mimeType: 'image/webp' },
    });
  });

  it('gives readable text and the parts of locations, shared contacts, taps on buttons and lists, reactions', () => {
    expect(
      readContent('location', {
        location: { latitude: 52.52, longitude: 13.405, name: 'Acme Depot', address: '1 Main St' },
      }),
    ).toEqual({
      text: 'Acme Depot, 1 Main St',
      location: { latitude: 52.52, longitude: 13.405, name: 'Acme Depot', address: '1 Main St' },
    });
    expect(readContent('location', { location: { latitude: '-33.8688', longitude: 151.2093 } })).toEqual({
      text: '-33.8688,151.2093',
      location: { latitude: -33.8688, longitude: 151.2093 },
    });
    expect(
      readContent('contacts', {
        contacts: [
          { name: { formatted_name: 'Grace Hopper', first_name: 'Grace' }, phones: [{ phone: '+1 555 0100' }] },
          { name: { formatted_name: 'Alan Turing' } },
        ],
      }),
    ).toEqual({ text: 'Grace Hopper, Alan Turing' });
    expect(
      readContent('interactive', { interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } } }),
    ).toEqual({ text: 'Yes', interactive: { kind: 'button_reply', id: 'yes', title: 'Yes' } });
    expect(
      readContent('interactive', {
        interactive: { type: 'list_reply', list_reply: { id: 'r2', title: 'Tomorrow', description: 'after 9' } },
      }),
    ).toEqual({
      text: 'Tomorrow',
      interactive: { kind: 'list_reply', id: 'r2', title: 'Tomorrow', description: 'after 9' },
    });
    expect(readContent('button', { button: { text: 'Track order', payload: 'TRACK' } })).toEqual({
      text: 'Track order',
    });
    expect(readContent('reaction', { reaction: { message_id: 'wamid.OUT', emoji: '👍' } })).toEqual({
      text: '👍',
      reaction: { messageId: 'wamid.OUT', emoji: '👍' },
    });
    expect(readContent('text', { text: { body: 'Hello' } })).toEqual({ text: 'Hello' });
  });

  it('an unknown type or a part without Meta’s shape gives no text and no media; a removed reaction no text', () => {
    expect(readContent('unsupported', { unsupported: {}, errors: [{ code: 131051 }] })).toEqual({ text: undefined });
    expect(readContent('ephemeral', {})).toEqual({ text: undefined });
    expect(readContent('reaction', { reaction: { message_id: 'wamid.OUT', emoji: '' } })).toEqual({
      text: undefined,
      reaction: { messageId: 'wamid.OUT', emoji: '' },
    });
    expect(readContent('image', { image: { id: 'm1' } })).toEqual({});
    expect(readContent('image', { image: 'nonsense' })).toEqual({});
    expect(readContent('location', { location: { name: 'No coordinates' } })).toEqual({ text: undefined });
    expect(readContent('contacts', { contacts: [{ phones: [] }] })).toEqual({ text: undefined });
    expect(readContent('interactive', { interactive: { type: 'nfm_reply', nfm_reply: {} } })).toEqual({
      text: undefined,
    });
  });
});
