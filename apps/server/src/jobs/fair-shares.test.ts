import { describe, expect, it } from 'vitest';
import { splitTurn, withTurn } from './fair-shares.js';

describe('splitTurn', () => {
  it('gives back the data as queued and the turn it carried', () => {
    expect(splitTurn(withTurn({ id: 'a' }, 7))).toEqual({ data: { id: 'a' }, turn: 7 });
    expect(splitTurn({ id: 'a' })).toEqual({ data: { id: 'a' }, turn: undefined });
  });

  it("takes a schedule's occurrence, which pg-boss queues with null data", () => {
    const occurrence: object = JSON.parse('null');
    expect(splitTurn(occurrence)).toEqual({ data: null, turn: undefined });
  });
});
