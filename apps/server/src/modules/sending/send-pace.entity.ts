import { defineEntity, p } from '@mikro-orm/core';

/**
 * A send budget shared by every instance (GCRA): `next_at` is the earliest time the next message under `key` may go
 * (`channel:<id>`). Taking n messages moves it on by n / rate; the taker sends them at their slots.
 */
const SendPaceSchema = defineEntity({
  name: 'SendPace',
  tableName: 'send_paces',
  properties: {
    key: p.string().length(80).primary(),
    nextAt: p.datetime(),
  },
});
export class SendPace extends SendPaceSchema.class {}
SendPaceSchema.setClass(SendPace);

/**
 * A running dispatcher's heartbeat. A `sending` message whose dispatcher has stopped beating died between its
 * provider call and the record of its answer: its outcome is unknown, and it is never sent again.
 */
const SendDispatcherSchema = defineEntity({
  name: 'SendDispatcher',
  tableName: 'send_dispatchers',
  properties: {
    id: p.uuid().primary(),
    seenAt: p.datetime(),
  },
});
export class SendDispatcher extends SendDispatcherSchema.class {}
SendDispatcherSchema.setClass(SendDispatcher);
