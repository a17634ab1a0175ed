import { defineEntity, p } from '@mikro-orm/core';

/** The turn the next job of one share (a tenant) takes in one pg-boss queue (see jobs/fair-shares.ts). */
const JobShareTurnSchema = defineEntity({
  name: 'JobShareTurn',
  tableName: 'job_share_turns',
  properties: {
    queue: p.string().length(100).primary(),
    share: p.string().length(100).primary(),
    nextTurn: p.bigint('number'),
  },
});
class JobShareTurn extends JobShareTurnSchema.class {}
JobShareTurnSchema.setClass(JobShareTurn);

/** The latest turn a worker started in one pg-boss queue: the queue's clock (see jobs/fair-shares.ts). */
const JobQueueTurnSchema = defineEntity({
  name: 'JobQueueTurn',
  tableName: 'job_queue_turns',
  properties: {
    queue: p.string().length(100).primary(),
    servedTurn: p.bigint('number'),
  },
});
class JobQueueTurn extends JobQueueTurnSchema.class {}
JobQueueTurnSchema.setClass(JobQueueTurn);

/** The tables the job queue's fair shares keep: wiring.ts adds them to the modules' entities. */
export const queueEntities = [JobShareTurn, JobQueueTurn];
