import { WEBHOOK_BATCH_MAX } from '@switchboard/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BackgroundWorker, RunningWorker } from '../../kit/jobs.js';
import type { RetryPolicy } from '../../kit/retry.js';
import type { Logger } from '../../logger.js';
import {
  DestinationConnection,
  type DestinationPolicy,
  signingSecrets,
  postDeliveries,
  type PostOutcome,
  type PostTarget,
} from '../webhook-transport/index.js';
import type { WebhookSecrets } from './webhook-secret-box.js';
import {
  claimDueDeliveries,
  DELIVERIES_CHANNEL,
  deliveryGauge,
  endpointsWithDueDeliveries,
  laneEndpoint,
  releaseClaims,
  type ClaimedDelivery,
  type LaneEndpoint,
} from './webhook-lanes.js';
import { AttemptRecorder } from './webhook-recorder.js';
import { ConcurrencyWindow, isStrained } from './webhook-window.js';

/** How deliveries are made: WEBHOOK_TIMEOUT_MS, WEBHOOK_DISABLE_AFTER_HOURS, WEBHOOK_CONCURRENCY, the retries. */
export interface DispatcherSettings {
  timeoutMs: number;
  disableAfterHours: number;
  /** POSTs one instance has in flight at most, over every endpoint. */
  concurrency: number;
  policy: RetryPolicy;
  destinations: DestinationPolicy;
  secrets: WebhookSecrets;
}

/** How often the dispatcher looks for endpoints with due deliveries (new ones, and retries coming due). */
const DISCOVER_EVERY_MS = 100;
/** An endpoint's window starts here and grows with its answers (webhook-window.ts). */
const ENDPOINT_WINDOW = { initial: 4, max: 64 };
/** A claim outlives the POST's timeout by this much: a delivery is attempted again only once its instance is gone. */
const LEASE_MARGIN_SECONDS = 10;
/** The deliveries of a disabled endpoint end in batches of this many, without a POST. */
const DISABLED_BATCH = 500;

type WorkerDeps = Parameters<BackgroundWorker['start']>[0];

/** What every lane of one dispatcher shares. */
interface Dispatch {
  settings: DispatcherSettings;
  em: () => EntityManager;
  log: Logger;
  recorder: AttemptRecorder;
  stopping: boolean;
  /** Aborts the POSTs still running when a stop has waited long enough. */
  abort: AbortController;
  /** POSTs in flight, per platform and in all. */
  inFlight: Map<string, number>;
  posts: number;
  /** Deliveries claimed by this instance and not yet answered. */
  claimed: number;
  windows: Map<string, ConcurrencyWindow>;
  lanes: Map<string, Promise<void>>;
  /** Resolves when a POST ends anywhere (a slot is free again), or at a stop. */
  freed: Promise<void>;
  wake: () => void;
}

function slotFreed(dispatch: Dispatch): void {
  const wake = dispatch.wake;
  dispatch.freed = new Promise((resolve) => (dispatch.wake = resolve));
  wake();
}

/** Slots this platform may still take: the instance's free ones, at most half of them all per platform. */
function platformRoom(dispatch: Dispatch, platformId: string): number {
  const { concurrency } = dispatch.settings;
  const share = Math.max(1, Math.floor(concurrency / 2)) - (dispatch.inFlight.get(platformId) ?? 0);
  return Math.min(concurrency - dispatch.posts, share);
}

function windowOf(dispatch: Dispatch, endpointId: string): ConcurrencyWindow {
  let window = dispatch.windows.get(endpointId);
  if (!window) {
    window = new ConcurrencyWindow({ ...ENDPOINT_WINDOW, slowMs: dispatch.settings.timeoutMs / 2 });
    dispatch.windows.set(endpointId, window);
  }
  return window;
}

/** One lane's POSTs in flight, and the connections they share. */
interface Lane {
  endpointId: string;
  platformId: string;
  window: ConcurrencyWindow;
  connection: DestinationConnection;
  inFlight: number;
}

/** Takes (or, negative, gives back) `slots` of the lane's platform and of the instance for the lane. */
function hold(dispatch: Dispatch, lane: Lane, slots: number): void {
  lane.inFlight += slots;
  dispatch.posts += slots;
  dispatch.inFlight.set(lane.platformId, (dispatch.inFlight.get(lane.platformId) ?? 0) + slots);
  if (slots < 0) slotFreed(dispatch);
}

function settle(dispatch: Dispatch, lane: Lane, group: readonly ClaimedDelivery[], outcome: PostOutcome | null) {
  dispatch.claimed -= group.length;
  hold(dispatch, lane, -1);
  if (outcome) return;
  // Stopped mid-POST: the receiver's answer is unknown, so the deliveries are due again at once (an instance that
  // dies instead leaves them claimed until the lease ends).
  releaseClaims(
    dispatch.em(),
    group.map((delivery) => delivery.id),
  ).catch((error: unknown) =>
    dispatch.log.warn({ reason: (error as Error).message }, 'giving back webhook claims failed; their lease ends them'),
  );
}

/** Where a lane's POSTs go and what signs them, opened once per claim (a rotation applies from the next one). */
function postTarget(dispatch: Dispatch, endpoint: LaneEndpoint): PostTarget {
  const { secrets } = dispatch.settings;
  const signing = signingSecrets({
    secret: secrets.open(endpoint.id, endpoint.secret_ciphertext),
    previousSecret:
      endpoint.previous_secret_ciphertext && secrets.open(endpoint.id, endpoint.previous_secret_ciphertext),
    // Raw rows may carry timestamps as text.
    previousSecretExpiresAt: endpoint.previous_secret_expires_at ? new Date(endpoint.previous_secret_expires_at) : null,
  });
  return { url: endpoint.url, secrets: signing, batch: endpoint.batch };
}

/**
 * Starts one POST of `group` (one delivery, or a batch) on a slot already held; its outcome goes to the recorder and
 * the lane's window.
 */
function startPost(
  dispatch: Dispatch,
  lane: Lane,
  endpoint: LaneEndpoint,
  target: PostTarget,
  group: readonly ClaimedDelivery[],
) {
  const deliveries = group.map((delivery) => ({ webhookId: delivery.webhook_id, payload: delivery.payload }));
  const { timeoutMs } = dispatch.settings;
  const startedAt = Date.now();
  void postDeliveries(lane.connection, target, deliveries, timeoutMs, dispatch.abort.signal)
    .then((outcome) => {
      if (dispatch.abort.signal.aborted) return null;
      lane.window.record(
        { strained: isStrained(outcome.statusCode, outcome.durationMs, timeoutMs / 2), startedAt },
        Date.now(),
      );
      const attempted = { endpointId: endpoint.id, platformId: endpoint.platform_id, url: endpoint.url };
      dispatch.recorder.add({ deliveries: group, endpoint: attempted, outcome });
      return outcome;
    })
    .then((outcome) => settle(dispatch, lane, group, outcome));
}

/** A disabled endpoint's due deliveries end `failed` without a POST, a batch at a time. */
async function endDisabled(dispatch: Dispatch, endpoint: LaneEndpoint): Promise<boolean> {
  const lease = Math.ceil(dispatch.settings.timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
  const claimed = await claimDueDeliveries(dispatch.em(), endpoint.id, DISABLED_BATCH, lease);
  const outcome = { ok: false, statusCode: null, error: 'endpoint disabled', final: true, durationMs: 0 };
  if (claimed.length > 0) dispatch.recorder.add({ deliveries: claimed, endpoint: null, outcome });
  return claimed.length > 0;
}

/**
 * Claims what `slots` allow and starts the POSTs; the slots are held from before the claim, so lanes claiming at
 * once never take more than the platform's share between them. False when nothing was due.
 */
async function claimAndPost(dispatch: Dispatch, lane: Lane, slots: number): Promise<boolean> {
  hold(dispatch, lane, slots);
  let posts = 0;
  try {
    const endpoint = await laneEndpoint(dispatch.em(), lane.endpointId);
    if (!endpoint) return false;
    if (!endpoint.is_active) return await endDisabled(dispatch, endpoint);
    const perPost = endpoint.batch ? WEBHOOK_BATCH_MAX : 1;
    const lease = Math.ceil(dispatch.settings.timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
    const claimed = await claimDueDeliveries(dispatch.em(), lane.endpointId, slots * perPost, lease);
    dispatch.claimed += claimed.length;
    const target = postTarget(dispatch, endpoint);
    for (; posts * perPost < claimed.length; posts++)
      startPost(dispatch, lane, endpoint, target, claimed.slice(posts * perPost, (posts + 1) * perPost));
    return claimed.length > 0;
  } finally {
    hold(dispatch, lane, posts - slots);
  }
}

/**
 * One endpoint's lane: claims its due deliveries while its window and the platform's share have room, until none
 * are due and its POSTs have ended. It claims once half its window is free (or it has nothing in flight), so a busy
 * endpoint costs one claim per several deliveries, not one each.
 */
async function drain(dispatch: Dispatch, lane: Lane): Promise<void> {
  while (!dispatch.stopping) {
    const room = Math.min(lane.window.limit - lane.inFlight, platformRoom(dispatch, lane.platformId));
    if (room <= 0 || (lane.inFlight > 0 && room * 2 < lane.window.limit)) {
      await dispatch.freed;
      continue;
    }
    if (!(await claimAndPost(dispatch, lane, room))) {
      if (lane.inFlight === 0) break;
      await dispatch.freed;
    }
  }
  while (lane.inFlight > 0) await dispatch.freed;
}

function startLane(dispatch: Dispatch, endpoint: LaneEndpoint): void {
  if (dispatch.lanes.has(endpoint.id) || dispatch.stopping) return;
  const lane: Lane = {
    endpointId: endpoint.id,
    platformId: endpoint.platform_id,
    window: windowOf(dispatch, endpoint.id),
    connection: new DestinationConnection(dispatch.settings.destinations),
    inFlight: 0,
  };
  const running = drain(dispatch, lane)
    .catch((error: unknown) =>
      dispatch.log.warn({ endpointId: endpoint.id, reason: (error as Error).message }, 'webhook lane stopped'),
    )
    .finally(() => {
      dispatch.lanes.delete(endpoint.id);
      void lane.connection.close();
    });
  dispatch.lanes.set(endpoint.id, running);
}

async function discover(dispatch: Dispatch): Promise<void> {
  try {
    for (const endpoint of await endpointsWithDueDeliveries(dispatch.em())) startLane(dispatch, endpoint);
  } catch (error) {
    dispatch.log.debug({ reason: (error as Error).message }, 'looking for due webhook deliveries failed');
  }
}

/** Stops claiming, lets the POSTs under way end (up to `timeoutMs`, then aborts them) and writes their outcomes. */
async function stopDispatch(dispatch: Dispatch, timeoutMs: number): Promise<void> {
  dispatch.stopping = true;
  slotFreed(dispatch);
  const deadline = Date.now() + timeoutMs;
  const lanes = Promise.all(dispatch.lanes.values());
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
  await Promise.race([lanes, timeout]);
  dispatch.abort.abort();
  await lanes;
  await dispatch.recorder.stop(Math.max(1000, deadline - Date.now()));
}

/**
 * Runs `discover` when asked, one at a time: asked again while it runs, it runs once more after. Asked every
 * DISCOVER_EVERY_MS (retries come due by the clock) and whenever a transaction that queued deliveries commits.
 */
function discoverer(dispatch: Dispatch) {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): Promise<void> =>
    discover(dispatch).then(() => {
      if (!again || dispatch.stopping) return;
      again = false;
      return run();
    });
  return {
    request() {
      if (running) again = true;
      else running = run().finally(() => (running = undefined));
    },
    settled: () => running ?? Promise.resolve(),
  };
}

function startDispatcher(settings: DispatcherSettings, deps: WorkerDeps): RunningWorker {
  const log = deps.logger.child({ component: 'webhook-dispatcher' });
  const em = () => deps.em.fork();
  const { policy, disableAfterHours } = settings;
  const recorder = new AttemptRecorder({ em, jobs: deps.jobs, log, policy, disableAfterHours });
  const dispatch: Dispatch = {
    ...{ settings, em, log, recorder, stopping: false, abort: new AbortController() },
    ...{ inFlight: new Map(), posts: 0, claimed: 0, windows: new Map(), lanes: new Map() },
    freed: Promise.resolve(),
    wake: () => undefined,
  };
  slotFreed(dispatch);
  const discovery = discoverer(dispatch);
  const timer = setInterval(() => discovery.request(), DISCOVER_EVERY_MS);
  const listener = deps.listen(
    DELIVERIES_CHANNEL,
    { notified: () => discovery.request(), listening: () => discovery.request(), lost: () => undefined },
    {
      lost: 'webhook dispatcher: lost its wake-up listener; it looks for new deliveries every 100 ms meanwhile',
      back: 'webhook dispatcher: wake-up listener back',
    },
  );
  log.info({ concurrency: settings.concurrency, endpointWindow: ENDPOINT_WINDOW }, 'webhook dispatcher started');

  const gauge = async (manager: EntityManager) => {
    const { queue, due, later, lagSeconds } = await deliveryGauge(manager);
    // Claimed deliveries are pending with a lease in the future: this instance's count as due until written.
    const ours = dispatch.claimed + recorder.unwritten;
    return { queue, due: due + ours, later: Math.max(0, later - ours), lagSeconds };
  };
  return {
    backlog: (manager) => gauge(manager),
    gauges: async (manager) => [await gauge(manager)],
    async stop(timeoutMs) {
      clearInterval(timer);
      await listener.stop();
      dispatch.stopping = true;
      await discovery.settled();
      await stopDispatch(dispatch, timeoutMs);
    },
  };
}

/**
 * The webhook dispatcher, one per instance with the worker (JOB_WORKER): each endpoint with due deliveries is
 * worked by its own lane, claiming its deliveries in batches from their table (webhook-lanes.ts) and POSTing as many
 * at once as the endpoint's window allows (webhook-window.ts), within the platform's share of the instance's slots.
 * Outcomes are written in batches (webhook-recorder.ts). Why not one pg-boss job per delivery: docs/architecture.md.
 */
export function webhookDispatcher(settings: DispatcherSettings): BackgroundWorker {
  return {
    name: 'webhook dispatcher',
    start: (deps) => startDispatcher(settings, deps),
    queued: async (em) => [await deliveryGauge(em)],
  };
}
