import { describe, expect, it } from 'vitest';
import { Readiness } from './readiness.js';

describe('Readiness', () => {
  it('names a step as pending until its work settles, failed work included', async () => {
    const readiness = new Readiness();
    let finish!: () => void;
    const seeding = readiness.track('demo data', new Promise<void>((resolve) => (finish = resolve)));
    const failing = readiness.track('other', Promise.reject(new Error('boom')));
    expect(readiness.pending).toEqual(['demo data', 'other']);
    await expect(failing).rejects.toThrow('boom');
    expect(readiness.pending).toEqual(['demo data']);
    finish();
    await seeding;
    expect(readiness.pending).toEqual([]);
  });
});
