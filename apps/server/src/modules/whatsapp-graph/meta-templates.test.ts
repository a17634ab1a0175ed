import { describe, expect, it } from 'vitest';
import { metaTemplateSchema, syncedTemplates, toSyncedTemplate } from './meta-templates.js';

const meta = (overrides: Record<string, unknown> = {}) =>
  metaTemplateSchema.parse({
    id: '1',
    name: 'order_update',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-1001'] } },
      {
        type: 'BODY',
        text: 'Hi {{1}}, order {{2}} shipped. Thanks, {{1}}!',
        example: { body_text: [['Ada', 'A-1001']] },
      },
      { type: 'FOOTER', text: 'Acme' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'URL', text: 'Track', url: 'https://x.test/t/{{1}}', example: ['https://x.test/t/A-1001'] },
          { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550100000' },
          { type: 'COPY_CODE', example: '123456' },
          { type: 'FLOW', text: 'Book', flow_id: '9' },
          { type: 'QUICK_REPLY', text: 'Stop' },
        ],
      },
    ],
    quality_score: { score: 'YELLOW', date: 1763890000 },
    ...overrides,
  });

describe('template sync mapping', () => {
  it('takes every part: body with its samples, header, footer, buttons, quality and Meta’s id', () => {
    expect(toSyncedTemplate(meta())).toEqual({
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      status: 'approved',
      body: 'Hi {{1}}, order {{2}} shipped. Thanks, {{1}}!',
      variableCount: 2,
      bodyExamples: ['Ada', 'A-1001'],
      header: { format: 'text', text: 'Order {{1}}', example: 'A-1001' },
      footer: 'Acme',
      // The FLOW button is a kind we do not carry: left out.
      buttons: [
        { type: 'url', text: 'Track', url: 'https://x.test/t/{{1}}', example: 'https://x.test/t/A-1001' },
        { type: 'phone_number', text: 'Call', phoneNumber: '+15550100000' },
        { type: 'copy_code', example: '123456' },
        { type: 'quick_reply', text: 'Stop' },
      ],
      rejectedReason: null,
      quality: 'yellow',
      providerTemplateId: '1',
    });
  });

  it('reads media headers with their upload handle, rejection reasons and unknown quality', () => {
    const image = { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1n'] } };
    expect(toSyncedTemplate(meta({ components: [image], quality_score: undefined }))).toMatchObject({
      header: { format: 'image', example: '4::aW1n' },
      footer: null,
      buttons: [],
      quality: 'unknown',
    });
    expect(toSyncedTemplate(meta({ status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' }))?.rejectedReason).toBe(
      'INVALID_FORMAT',
    );
    expect(toSyncedTemplate(meta({ rejected_reason: 'NONE' }))?.rejectedReason).toBeNull();
  });

  it.each([
    ['APPROVED', 'approved'],
    ['PENDING', 'pending'],
    ['IN_APPEAL', 'in_appeal'],
    ['REJECTED', 'rejected'],
    ['PAUSED', 'paused'],
    ['DISABLED', 'disabled'],
    ['PENDING_DELETION', 'pending_deletion'],
    ['LIMIT_EXCEEDED', undefined],
  ])('maps status %s to %s', (status, expected) => {
    expect(toSyncedTemplate(meta({ status }))?.status).toBe(expected);
  });

  it('leaves out categories we do not know and treats a missing BODY as empty', () => {
    expect(toSyncedTemplate(meta({ category: 'TRANSACTIONAL' }))).toBeUndefined();
    expect(toSyncedTemplate(meta({ category: 'marketing' }))?.category).toBe('MARKETING');
    expect(toSyncedTemplate(meta({ components: [{ type: 'HEADER', text: '{{1}}' }] }))).toMatchObject({
      body: '',
      variableCount: 0,
    });
    expect(toSyncedTemplate(meta({ components: undefined }))).toMatchObject({ body: '', variableCount: 0 });
  });

  it('keeps the templates of a known status', () => {
    const rows = syncedTemplates([
      meta(),
      meta({ name: 'paused', status: 'PAUSED' }),
      meta({ name: 'gone', status: 'DELETED' }),
      meta({ name: 'promo', category: 'MARKETING', status: 'PENDING' }),
    ]);
    expect(rows.map((row) => [row.name, row.status])).toEqual([
      ['order_update', 'approved'],
      ['paused', 'paused'],
      ['promo', 'pending'],
    ]);
  });

  it('keeps one row per name and language, and leaves out what our columns cannot hold', () => {
    const rows = syncedTemplates([
      meta(),
      meta({ status: 'REJECTED' }),
      meta({ language: 'de_DE' }),
      meta({ name: 'x'.repeat(201) }),
      meta({ language: 'l'.repeat(21) }),
      meta({ name: 'nul', components: [{ type: 'BODY', text: 'a\u0000b' }] }),
    ]);
    expect(rows.map((row) => [row.name, row.language, row.status])).toEqual([
      ['order_update', 'en_US', 'approved'],
      ['order_update', 'de_DE', 'approved'],
    ]);
  });
});
