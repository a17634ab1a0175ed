import { describe, expect, it } from 'vitest';
import { conditionsHold, type RunFacts } from './automation-rules.js';

const facts: RunFacts = {
  contact: { name: 'Ada', phone: '15550000001', customFields: { Plan: 'pro', Age: 36, Vip: false } },
  labelIds: new Set(['l1']),
  text: 'What are your Opening HOURS?',
  reply: null,
  firstMessage: true,
};

describe('conditionsHold', () => {
  it('compares text case-insensitively by operator', () => {
    expect(conditionsHold([{ field: 'text', operator: 'contains', value: 'hours' }], facts)).toBe(true);
    expect(conditionsHold([{ field: 'text', operator: 'startsWith', value: 'what ARE' }], facts)).toBe(true);
    expect(conditionsHold([{ field: 'text', operator: 'startsWith', value: 'hours' }], facts)).toBe(false);
    expect(conditionsHold([{ field: 'text', operator: 'equals', value: 'what are your opening hours?' }], facts)).toBe(
      true,
    );
    expect(conditionsHold([{ field: 'text', operator: 'equals', value: 'hours' }], facts)).toBe(false);
    expect(conditionsHold([{ field: 'text', operator: 'contains', value: 'x' }], { ...facts, text: null })).toBe(false);
  });

  it('matches a tap by the id of the button or row, exactly; a message that is no tap never matches', () => {
    const tap = { ...facts, text: 'Track order', reply: 'track_order' };
    expect(conditionsHold([{ field: 'reply', operator: 'equals', value: 'track_order' }], tap)).toBe(true);
    expect(conditionsHold([{ field: 'reply', operator: 'equals', value: 'TRACK_ORDER' }], tap)).toBe(false);
    expect(conditionsHold([{ field: 'reply', operator: 'equals', value: 'track_order' }], facts)).toBe(false);
  });

  it('checks labels, custom fields and the first message; all must hold', () => {
    expect(conditionsHold([{ field: 'label', operator: 'has', value: 'l1' }], facts)).toBe(true);
    expect(conditionsHold([{ field: 'label', operator: 'hasNot', value: 'l1' }], facts)).toBe(false);
    expect(conditionsHold([{ field: 'customField', name: 'Age', operator: 'equals', value: 36 }], facts)).toBe(true);
    expect(conditionsHold([{ field: 'customField', name: 'Age', operator: 'equals', value: '36' }], facts)).toBe(false);
    expect(conditionsHold([{ field: 'customField', name: 'Vip', operator: 'isSet' }], facts)).toBe(true);
    expect(conditionsHold([{ field: 'customField', name: 'Birthday', operator: 'isNotSet' }], facts)).toBe(true);
    expect(conditionsHold([{ field: 'firstMessage', operator: 'is', value: false }], facts)).toBe(false);
    expect(
      conditionsHold(
        [
          { field: 'label', operator: 'has', value: 'l1' },
          { field: 'firstMessage', operator: 'is', value: false },
        ],
        facts,
      ),
    ).toBe(false);
    expect(conditionsHold([], facts)).toBe(true);
  });
});
