import { defineEntity, p } from '@mikro-orm/core';

/** When a shared periodic job's next pass is due, for every instance alike (see kit/periodic-worker.ts). */
const WorkerScheduleSchema = defineEntity({
  name: 'WorkerSchedule',
  tableName: 'worker_schedules',
  properties: {
    name: p.string().length(100).primary(),
    nextPassAt: p.datetime(),
  },
});
export class WorkerSchedule extends WorkerScheduleSchema.class {}
WorkerScheduleSchema.setClass(WorkerSchedule);
