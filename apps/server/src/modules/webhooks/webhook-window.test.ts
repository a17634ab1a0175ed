import { describe, expect, it } from 'vitest';
import { ConcurrencyWindow, isStrained } from './webhook-window.js';

const settings = { initial: 4, max: 64, slowMs: 5000 };
const answer = (window: ConcurrencyWindow, times: number, at = 0) => {
  for (let i = 0; i < times; i++) window.record({ strained: false, startedAt: at }, at);
};

describe('an endpoint’s concurrency window', () => {
  it('grows by one per prompt answer up to its maximum while nothing strains', () => {
    const window = new ConcurrencyWindow(settings);
    answer(window, 10);
    expect(window.limit).toBe(14);
    answer(window, 1000);
    expect(window.limit).toBe(64);
  });

  it('halves on strain, once for the attempts that were in flight together, down to one', () => {
    const window = new ConcurrencyWindow(settings);
    answer(window, 28);
    expect(window.limit).toBe(32);
    for (let i = 0; i < 32; i++) window.record({ strained: true, startedAt: 100 }, 200 + i);
    expect(window.limit).toBe(16);
    for (let step = 0; step < 10; step++) window.record({ strained: true, startedAt: 1000 + step }, 1000 + step);
    expect(window.limit).toBe(1);
  });

  it('after a halving, grows by one per window of answers', () => {
    const window = new ConcurrencyWindow(settings);
    answer(window, 12);
    window.record({ strained: true, startedAt: 0 }, 1);
    expect(window.limit).toBe(8);
    answer(window, 7, 2);
    expect(window.limit).toBe(8);
    answer(window, 1, 2);
    expect(window.limit).toBe(9);
  });
});

describe('strain', () => {
  it('is a timeout or network error, an overload status, or a slow answer; a plain 500 or 404 is not', () => {
    expect(isStrained(null, 10, 5000)).toBe(true);
    expect(isStrained(503, 10, 5000)).toBe(true);
    expect(isStrained(429, 10, 5000)).toBe(true);
    expect(isStrained(200, 6000, 5000)).toBe(true);
    expect(isStrained(500, 10, 5000)).toBe(false);
    expect(isStrained(404, 10, 5000)).toBe(false);
    expect(isStrained(200, 10, 5000)).toBe(false);
  });
});
