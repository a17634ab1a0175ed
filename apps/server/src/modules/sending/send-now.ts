import { randomUUID } from 'node:crypto';
import { AfterEffectError } from '../../kit/errors.js';
import { provide, serviceKey } from '../../kit/services.js';
import { MESSAGING, requireProvider } from '../messages/index.js';
import { BROADCAST_STOPS } from './broadcast-stops.port.js';
import { sendBatch, type BatchResult, type Dispatch } from './hand-over.js';
import { beat, forget, HEARTBEAT_EVERY_MS, reservedSend } from './outbox-rows.js';
import { channelPaceKey, returnSendSlots, takeSendSlots } from './send-pace.js';

/**
 * How long an API send may wait for its slot of the channel's budget. Beyond it the budget is taken (a broadcast is
 * sending): the message stays queued and the dispatcher sends it in its turn.
 */
const SLOT_WAIT_MS = 250;

/** A message an API request queued (queueSend, reserved for its hand-over, committed). */
interface QueuedNow {
  id: string;
  msgid: string;
  channelId: string;
}

/** What the caller is answered: accepted (under the msgid the provider's id became), or left to the dispatcher. */
export type SentNow = { status: 'accepted'; msgid: string } | { status: 'queued'; msgid: string };

/** The API's sends at once (see SEND_NOW). */
export interface SendNow {
  /**
   * Queues a message (`queue` commits it, reserved for `sendingBy`: no dispatcher claims it meanwhile) and hands it
   * over at once when its channel has budget now.
   */
  send(queue: (sendingBy: string) => Promise<QueuedNow>): Promise<SentNow>;
  /** 503 before anything is queued when this server has no provider by that name (the channel's `provider`). */
  requireProvider(name: string): void;
}

/** What the call came to, as the caller is answered: the provider's refusal is the request's error, as it was. */
function answerOf(queued: QueuedNow, { attempts, changes }: BatchResult): SentNow {
  const [attempt] = attempts;
  if (attempt?.outcome.status === 'accepted') {
    const recorded = changes.find((change) => change.id === queued.id && change.status === 'accepted');
    return { status: 'accepted', msgid: recorded?.msgid ?? queued.msgid };
  }
  if (attempt?.outcome.status === 'failed') throw attempt.error;
  return { status: 'queued', msgid: queued.msgid };
}

/** The hand-over proper: the slot, then sendBatch; a failure to record is the caller's 503 (see sendNow). */
async function handOverNow(dispatch: Dispatch, queued: QueuedNow): Promise<SentNow> {
  const { em, options, log } = dispatch;
  const slots = await takeSendSlots(em(), channelPaceKey(queued.channelId), 1, options.ratePerSecond);
  const claimed =
    slots.startMs > Date.now() + SLOT_WAIT_MS ? undefined : await reservedSend(em(), dispatch.id, queued.id);
  if (!claimed) {
    await returnSendSlots(em(), slots, 1);
    return { status: 'queued', msgid: queued.msgid };
  }
  const result = await sendBatch(dispatch, [claimed], slots, true).catch((error: unknown) => {
    log.error({ err: error, msgid: queued.msgid }, 'handing a send over failed; the dispatcher ends it');
    throw new AfterEffectError(
      503,
      'service_unavailable',
      `Message ${queued.msgid} was queued but handing it to the provider could not be completed: ` +
        'chat/message/status tells what became of it. Do not resend it without checking.',
    );
  });
  return answerOf(queued, result);
}

/**
 * The hand-over of one API send, made by the dispatcher's own function (sendBatch) under a dispatcher id of its own
 * that beats from before the message is queued until its outcome is recorded: one slot of the channel's budget
 * (SLOT_WAIT_MS at most), the message handed over (`sending`), the provider called, the answer recorded. Without a
 * slot the reservation is released and the dispatcher sends the message in its turn. Nothing is retried here: if
 * recording fails, the heartbeat stops and the dispatcher ends the message as after a crash (`outcome_unknown`); the
 * caller gets a 503 naming the msgid, kept for its Idempotency-Key.
 */
async function sendNow(
  base: Omit<Dispatch, 'id' | 'stopping' | 'gone'>,
  queue: (sendingBy: string) => Promise<QueuedNow>,
): Promise<SentNow> {
  const dispatch: Dispatch = { ...base, id: randomUUID(), stopping: false, gone: true };
  const { em, id } = dispatch;
  // The first beat is written with the message, by queueSend, in the queueing transaction.
  const beating = setInterval(() => void beat(em(), id).catch(() => undefined), HEARTBEAT_EVERY_MS);
  try {
    return await handOverNow(dispatch, await queue(id));
  } finally {
    clearInterval(beating);
    // Not awaited: the caller's answer does not depend on it, and a release that fails is a stale heartbeat, which
    // the dispatcher handles as after a crash.
    void forget(em(), id).catch(() => undefined);
  }
}

/** The API's hand-over at once, with the dispatcher's budget, providers and broadcasts' stops. */
export const SEND_NOW = serviceKey<SendNow>('sending.sendNow');

export const sendNowService = provide({
  key: SEND_NOW,
  start: ({ em, logger, config, services }): SendNow => {
    const base = {
      em: () => em.fork(),
      log: logger.child({ component: 'send-now' }),
      options: {
        ratePerSecond: config.SEND_RATE_PER_CHANNEL,
        providers: () => services.get(MESSAGING),
        stops: () => services.get(BROADCAST_STOPS),
      },
    };
    return {
      send: (queue) => sendNow(base, queue),
      requireProvider: (name) => void requireProvider(services.get(MESSAGING), name),
    };
  },
});
