import { describe, expect, it } from 'vitest';
import { nextRetryAt } from './retry.js';

const policy = { schedule: [5, 30, 120], windowHours: 1 };
const since = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(since.getTime() + seconds * 1000);

describe('nextRetryAt', () => {
  it('follows the schedule, then repeats its last step', () => {
    expect(nextRetryAt(policy, 1, since, at(0))).toEqual(at(5));
    expect(nextRetryAt(policy, 2, since, at(6))).toEqual(at(36));
    expect(nextRetryAt(policy, 3, since, at(40))).toEqual(at(160));
    expect(nextRetryAt(policy, 9, since, at(600))).toEqual(at(720));
  });

  it('gives up when the next attempt would fall after the retry window', () => {
    expect(nextRetryAt(policy, 5, since, at(3480))).toEqual(at(3600));
    expect(nextRetryAt(policy, 5, since, at(3481))).toBeNull();
  });

  it('uses the default schedule to span about three days', () => {
    const defaults = { schedule: [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800], windowHours: 72 };
    let now = since;
    let retries = 0;
    for (let next = nextRetryAt(defaults, 1, since, now); next; next = nextRetryAt(defaults, retries + 1, since, now)) {
      now = next;
      retries++;
    }
    expect(retries).toBe(16);
    expect((now.getTime() - since.getTime()) / 3_600_000).toBeGreaterThan(70);
  });
});
