import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { JobQueue } from './jobs.js';
import type { SecretBox } from './secrets.js';

/** Names a long-lived object a module provides (e.g. the messaging providers) and its type. */
export interface ServiceKey<T> {
  readonly name: string;
  /** Carries T for the type checker only. */
  readonly type?: T;
}

export const serviceKey = <T>(name: string): ServiceKey<T> => ({ name });

export interface ServiceDeps {
  em: EntityManager;
  logger: Logger;
  config: Config;
  /** Services of the modules listed before this one (module order is start order), e.g. the WhatsApp client. */
  services: Pick<Services, 'get'>;
  /** Queues jobs inside a transaction (e.g. the events a provider's status report causes). */
  jobs: JobQueue;
  /** Seals secrets at rest (SECRETS_KEY); undefined when none is configured (a module needing it then says so). */
  secrets: SecretBox | undefined;
  /** Opens a LISTEN connection to the database (PostgreSQL NOTIFY reaches every instance). */
  listen: ListenFor;
}

/** How a module starts one of its services when the server starts, and stops it when the server stops. */
export interface ServiceProvider<T = unknown> {
  key: ServiceKey<T>;
  start(deps: ServiceDeps): T;
  /**
   * A start-up check against the database (e.g. stored secrets open with the configured key); throwing stops start-up.
   */
  check?(service: T, deps: ServiceDeps): Promise<void>;
  stop?(service: T): Promise<void>;
}

export const provide = <T>(provider: ServiceProvider<T>): ServiceProvider<T> => provider;

/** The started services of every module, by key. */
export interface Services {
  get<T>(key: ServiceKey<T>): T;
  /** Runs every provider's start-up check. */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the providers in order; each may use the services started before it. */
export function startServices(providers: readonly ServiceProvider[], deps: Omit<ServiceDeps, 'services'>): Services {
  const started = new Map<string, { provider: ServiceProvider; service: unknown }>();
  const get = <T>(key: ServiceKey<T>): T => {
    const entry = started.get(key.name);
    if (!entry)
      throw new Error(`No module provides the service "${key.name}" (or its module is listed after the one asking)`);
    return entry.service as T;
  };
  const withServices: ServiceDeps = { ...deps, services: { get } };
  for (const provider of providers) started.set(provider.key.name, { provider, service: provider.start(withServices) });
  return {
    get,
    async check() {
      for (const { provider, service } of started.values()) await provider.check?.(service, withServices);
    },
    async stop() {
      await Promise.all([...started.values()].map(({ provider, service }) => provider.stop?.(service)));
    },
  };
}

/** What a LISTENing connection reports (db/notification-listener.ts). */
interface NotificationEvents {
  notified(payload: string): void;
  /** LISTEN is confirmed on a (new) connection: notifications of later commits arrive. */
  listening(): void;
  /** The connection is gone: notifications may be missed until `listening` again. */
  lost(): void;
}

/** A dedicated connection LISTENing on one PostgreSQL channel, reconnecting by itself. */
export type ListenFor = (
  channel: string,
  events: NotificationEvents,
  /** The log lines when the connection is lost and when it is back: what the loss means for its user. */
  outage: { lost: string; back: string },
) => { stop(): Promise<void> };
