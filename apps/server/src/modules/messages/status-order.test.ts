import { describe, expect, it } from 'vitest';
import type { DeliveryStatus } from './messaging-provider.port.js';
import { nextStatus, statusesMovingTo, statusesReplacedBy } from './status-order.js';

const ALL: DeliveryStatus[] = ['accepted', 'sent', 'delivered', 'read', 'failed'];

describe('nextStatus', () => {
  // Rows: current; columns: incoming accepted, sent, delivered, read, failed.
  const expected: Record<DeliveryStatus, DeliveryStatus[]> = {
    accepted: ['accepted', 'sent', 'delivered', 'read', 'failed'],
    sent: ['sent', 'sent', 'delivered', 'read', 'failed'],
    delivered: ['delivered', 'delivered', 'delivered', 'read', 'delivered'],
    read: ['read', 'read', 'read', 'read', 'read'],
    failed: ['failed', 'failed', 'delivered', 'read', 'failed'],
  };

  it.each(ALL)('from %s follows the table', (current) => {
    expect(ALL.map((incoming) => nextStatus(current, incoming))).toEqual(expected[current]);
  });

  it('ends at the same status whatever order the reports arrive in', () => {
    const orders = [
      ['sent', 'delivered', 'read'],
      ['read', 'sent', 'delivered'],
      ['delivered', 'read', 'sent'],
      ['read', 'delivered', 'sent'],
    ] as DeliveryStatus[][];
    for (const order of orders) expect(order.reduce(nextStatus, 'accepted')).toBe('read');
    expect((['failed', 'sent'] as DeliveryStatus[]).reduce(nextStatus, 'accepted')).toBe('failed');
    expect((['sent', 'failed', 'delivered'] as DeliveryStatus[]).reduce(nextStatus, 'accepted')).toBe('delivered');
  });

  it(
    'keeps the higher of the two along accepted < sent < failed < delivered < read, so re-applying reports changes ' +
      'nothing',
    () => {
      const order: DeliveryStatus[] = ['accepted', 'sent', 'failed', 'delivered', 'read'];
      for (const current of ALL) {
        for (const incoming of ALL) {
          expect(nextStatus(current, incoming)).toBe(order[Math.max(order.indexOf(current), order.indexOf(incoming))]);
        }
      }
    },
  );
});

describe('statusesReplacedBy', () => {
  it('lists exactly the statuses nextStatus moves away from', () => {
    expect(statusesReplacedBy('accepted')).toEqual([]);
    expect(statusesReplacedBy('sent')).toEqual(['accepted']);
    expect(statusesReplacedBy('delivered')).toEqual(['accepted', 'sent', 'failed']);
    expect(statusesReplacedBy('read')).toEqual(['accepted', 'sent', 'delivered', 'failed']);
    expect(statusesReplacedBy('failed')).toEqual(['accepted', 'sent']);
  });
});

describe('statusesMovingTo', () => {
  it('adds the send pipeline’s moves to the provider’s rule', () => {
    expect(statusesMovingTo('sending')).toEqual(['queued', 'scheduled']);
    expect(statusesMovingTo('queued')).toEqual(['sending']);
    expect(statusesMovingTo('cancelled')).toEqual(['queued', 'scheduled']);
    expect(statusesMovingTo('accepted')).toEqual(['sending']);
    expect(statusesMovingTo('failed')).toEqual(['sending', 'accepted', 'sent']);
    expect(statusesMovingTo('delivered')).toEqual(statusesReplacedBy('delivered'));
    expect(statusesMovingTo('scheduled')).toEqual([]);
  });
});
