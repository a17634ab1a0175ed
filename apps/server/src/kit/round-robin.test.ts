import { describe, expect, it } from 'vitest';
import { roundRobin } from './round-robin.js';

describe('roundRobin', () => {
  it('takes one item of each group in turn, each group keeping its order', () => {
    const items = ['a1', 'a2', 'a3', 'b1', 'a4', 'c1', 'b2'];
    expect(roundRobin(items, (item) => item[0]!)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('leaves one group, and nothing, as it is', () => {
    expect(roundRobin(['x1', 'x2'], () => 'x')).toEqual(['x1', 'x2']);
    expect(roundRobin([], () => 'x')).toEqual([]);
  });
});
