import { describe, expect, it } from 'vitest';
import { isMediaUrl, mediaReply, toGraphMedia } from './graph-media.js';

describe('Graph media', () => {
  it('reads Graph’s media object, file_size as a string or not at all', () => {
    const reply = { url: 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', mime_type: 'image/jpeg' };
    expect(toGraphMedia(mediaReply.parse({ ...reply, sha256: 'abc=', file_size: '303833', id: '1' }))).toEqual({
      url: reply.url,
      mimeType: 'image/jpeg',
      sha256: 'abc=',
      size: 303_833,
    });
    expect(toGraphMedia(mediaReply.parse({ ...reply, file_size: 'lots' }))).toEqual({
      url: reply.url,
      mimeType: 'image/jpeg',
    });
  });

  it('lets the token go to the Graph host and Meta’s CDN over https only', () => {
    const graph = 'https://graph.facebook.com';
    expect(isMediaUrl('https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', graph)).toBe(true);
    expect(isMediaUrl('https://graph.facebook.com/v23.0/1', graph)).toBe(true);
    expect(isMediaUrl('http://127.0.0.1:4000/x', 'http://127.0.0.1:4000')).toBe(true);
    for (const url of [
      'http://lookaside.fbsbx.com/x',
      'https://fbsbx.com.example.net/x',
      'https://evilfbsbx.com/x',
      'https://127.0.0.1:4001/x',
      'not a url',
    ])
      expect(isMediaUrl(url, graph)).toBe(false);
  });
});
