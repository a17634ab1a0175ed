import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

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
}

/** How a module starts one of its services when the server starts, and stops it when the server stops. */
export interface ServiceProvider<T = unknown> {
  key: ServiceKey<T>;
  start(deps: ServiceDeps): T;
  /** A start-up check against the database (e.g. stored secrets open with the configured key); throwing stops start-up. */
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

export function startServices(providers: readonly ServiceProvider[], deps: ServiceDeps): Services {
  const started = new Map(providers.map((provider) => [provider.key.name, { provider, service: provider.start(deps) }]));
  return {
    get<T>(key: ServiceKey<T>): T {
      const entry = started.get(key.name);
      if (!entry) throw new Error(`No module provides the service "${key.name}"`);
      return entry.service as T;
    },
    async check() {
      for (const { provider, service } of started.values()) await provider.check?.(service, deps);
    },
    async stop() {
      await Promise.all([...started.values()].map(({ provider, service }) => provider.stop?.(service)));
    },
  };
}
