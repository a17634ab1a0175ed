import { describe, expect, it } from 'vitest';
import { nextEditAllowedAt } from './template-edits.js';

const now = new Date('2026-12-06T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3_600_000).toISOString();

describe('nextEditAllowedAt', () => {
  it('allows the first edit and one a day after', () => {
    expect(nextEditAllowedAt([], now)).toBeUndefined();
    expect(nextEditAllowedAt([daysAgo(1.5)], now)).toBeUndefined();
    expect(nextEditAllowedAt([daysAgo(0.25)], now)).toEqual(new Date('2026-12-07T06:00:00Z'));
  });

  it('allows ten edits in 30 days: the eleventh waits for the oldest to leave the window', () => {
    const ten = Array.from({ length: 10 }, (_, i) => daysAgo(29 - i * 2));
    expect(nextEditAllowedAt(ten, now)).toEqual(new Date('2026-12-07T12:00:00Z'));
    expect(nextEditAllowedAt(ten.slice(1), now)).toBeUndefined();
    expect(nextEditAllowedAt([daysAgo(40), ...ten.slice(1)], now)).toBeUndefined();
  });
});
