import { describe, expect, it } from 'vitest';
import { sharedRoundTrips } from './notification-listener.js';

/** Round trips the test completes by hand, in the order they started. */
function manualTrips() {
  const pending: { finish: (value: boolean) => void; fail: (error: Error) => void }[] = [];
  const roundTrip = () =>
    new Promise<boolean>((finish, fail) => {
      pending.push({ finish, fail });
    });
  return { pending, catchUp: sharedRoundTrips(roundTrip) };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('sharedRoundTrips', () => {
  it('answers every call with a round trip started after it, sharing one among calls that wait together', async () => {
    const { pending, catchUp } = manualTrips();
    const first = catchUp();
    expect(pending).toHaveLength(1);
    // These arrive while the first trip is on the wire: it may have left before their change committed.
    const second = catchUp();
    const third = catchUp();
    expect(pending).toHaveLength(1);

    let secondDone = false;
    void second.then(() => (secondDone = true));
    pending[0]!.finish(true);
    expect(await first).toBe(true);
    await settled();
    expect(secondDone).toBe(false);
    expect(pending).toHaveLength(2);

    pending[1]!.finish(true);
    expect([await second, await third]).toEqual([true, true]);
    // With nothing in flight the next call starts its own trip at once.
    void catchUp();
    expect(pending).toHaveLength(3);
  });

  it('answers false when the round trip fails, and recovers on the next call', async () => {
    const { pending, catchUp } = manualTrips();
    const failing = catchUp();
    pending[0]!.fail(new Error('connection lost'));
    expect(await failing).toBe(false);
    const next = catchUp();
    pending[1]!.finish(true);
    expect(await next).toBe(true);
  });
});
