import type { Task } from '../../kit/jobs.js';
import { provide } from '../../kit/services.js';
import { LockMode } from '@mikro-orm/core';
import { BROADCAST_STOPS, type BroadcastStops } from '../sending/index.js';
import { CANCEL_SENDS_QUEUE, cancelUnsentSends, PREPARE_QUEUE, prepareBroadcast } from './broadcast-lifecycle.js';
import { Broadcast } from './broadcast.entity.js';

/**
 * Preparations run 4 at a time per instance and at most 2 per platform across every instance: a platform that starts
 * many large broadcasts at once leaves slots (and pooled connections) to the others, whose broadcasts start without
 * waiting for its.
 */
export const prepareTask: Task<{ broadcastId: string }> = {
  queue: PREPARE_QUEUE,
  concurrency: 4,
  shareConcurrency: 2,
  run: ({ broadcastId }, { em }) => prepareBroadcast(em, broadcastId),
};

/** Cancelled broadcasts' sweeps (see cancelUnsentSends). */
export const cancelSendsTask: Task<{ broadcastId: string }> = {
  queue: CANCEL_SENDS_QUEUE,
  concurrency: 2,
  shareConcurrency: 1,
  run: ({ broadcastId }, { em }) => cancelUnsentSends(em, broadcastId),
};

/** The dispatcher's question (BroadcastStops): which of these broadcasts were cancelled or paused, locked FOR SHARE. */
const broadcastStops: BroadcastStops = {
  async stoppedOf(tx, broadcastIds) {
    const rows = await tx.find(
      Broadcast,
      { id: { $in: [...broadcastIds] } },
      { fields: ['status'], orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_READ },
    );
    const inStatus = (status: Broadcast['status']) => rows.filter((row) => row.status === status).map((row) => row.id);
    return { cancelled: inStatus('cancelled'), paused: inStatus('paused') };
  },
};

export const broadcastStopsService = provide({ key: BROADCAST_STOPS, start: () => broadcastStops });
