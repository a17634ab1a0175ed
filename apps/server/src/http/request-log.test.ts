import { describe, expect, it } from 'vitest';
import { loggedUrl } from './request-log.js';

describe('loggedUrl', () => {
  it('cuts a media link token from the path', () => {
    expect(loggedUrl('/media/eyJhbGciOi.abc-DEF_1')).toBe('/media/[redacted]');
    expect(loggedUrl('/media/eyJhbGciOi.abc?download=1')).toBe('/media/[redacted]?download=1');
  });

  it('cuts it whatever the case of the path, as Express routes it', () => {
    expect(loggedUrl('/MEDIA/eyJhbGciOi.abc-DEF_1')).toBe('/MEDIA/[redacted]');
    expect(loggedUrl('/mEdIa/eyJhbGciOi.abc?download=1')).toBe('/mEdIa/[redacted]?download=1');
  });

  it('cuts the values of credential-like query parameters and keeps the others', () => {
    expect(
      loggedUrl('/webhooks/whatsapp/c1?hub.mode=subscribe&hub.verify_token=v3ry&hub.challenge=42&api_key=sb_live_x'),
    ).toBe('/webhooks/whatsapp/c1?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=42&api_key=[redacted]');
    expect(loggedUrl('/api/platform/v1/webhooks/list?platformId=p1&secret=s&Password=p&x-auth=a')).toBe(
      '/api/platform/v1/webhooks/list?platformId=p1&secret=[redacted]&Password=[redacted]&x-auth=[redacted]',
    );
  });

  it('leaves other paths as they are', () => {
    expect(loggedUrl('/api/workspace/v1/contacts/list')).toBe('/api/workspace/v1/contacts/list');
    expect(loggedUrl('/developer/media/x')).toBe('/developer/media/x');
  });
});
