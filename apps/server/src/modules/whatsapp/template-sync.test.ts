import { describe, expect, it } from 'vitest';
import { metaTemplateSchema, syncedTemplates, toSyncedTemplate } from './template-sync.js';

const meta = (overrides: Record<string, unknown> = {}) =>
  metaTemplateSchema.parse({
    id: '1',
    name: 'order_update',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped. Thanks, {{1}}!' },
      { type: 'FOOTER', text: 'Acme' },
      { type: 'BUTTONS', buttons: [] },
    ],
    ...overrides,
  });

describe('template sync mapping', () => {
  it('takes name, language, category and the BODY text with its distinct placeholders', () => {
    expect(toSyncedTemplate(meta())).toEqual({
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      status: 'approved',
      body: 'Hi {{1}}, order {{2}} shipped. Thanks, {{1}}!',
      variableCount: 2,
    });
  });

  it.each([
    ['APPROVED', 'approved'],
    ['PENDING', 'pending'],
    ['IN_APPEAL', 'pending'],
    ['REJECTED', 'rejected'],
    ['PAUSED', undefined],
    ['DISABLED', undefined],
    ['PENDING_DELETION', undefined],
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

  it('keeps only the listable templates of a listing', () => {
    const rows = syncedTemplates([
      meta(),
      meta({ name: 'paused', status: 'PAUSED' }),
      meta({ name: 'promo', category: 'MARKETING', status: 'PENDING' }),
    ]);
    expect(rows.map((row) => [row.name, row.status])).toEqual([
      ['order_update', 'approved'],
      ['promo', 'pending'],
    ]);
  });
});
