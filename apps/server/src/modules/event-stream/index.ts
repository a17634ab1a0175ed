import { EVENT_STREAM, EVENT_STREAM_REPLAY_HOURS } from '@switchboard/contract';
import { defineModule } from '../../kit/module.js';
import { retentionWorker } from '../../kit/retention.js';
import { eventHubService } from './event-hub.js';
import { serveEventStream } from './event-stream.service.js';
import { WorkspaceEvent } from './workspace-event.entity.js';

export { recordWorkspaceEvents } from './event-record.js';
export { serveEventStream } from './event-stream.service.js';

/**
 * The live event stream (GET events/stream): every event emitted (modules/emitter) is also a row here, kept for
 * the replay window, and each instance's hub feeds its open streams as events commit, on whichever instance.
 */
export const eventStreamModule = defineModule({
  name: 'event-stream',
  entities: [WorkspaceEvent],
  streams: [{ route: EVENT_STREAM, serve: serveEventStream }],
  services: [eventHubService],
  jobs: () => ({
    targets: [],
    workers: [
      retentionWorker({
        name: 'event-stream.retention',
        entity: WorkspaceEvent,
        days: EVENT_STREAM_REPLAY_HOURS / 24,
        expired: (cutoff) => ({ createdAt: { $lt: cutoff } }),
        message: 'deleted workspace events past the stream’s replay window',
      }),
    ],
  }),
});
