import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExampleIdName } from '@switchboard/contract';
import type { Router } from 'express';
import type { z } from 'zod';
import type { RouteDeps, RouteSlice } from './implement.js';
import type { JobDeps, ModuleJobs } from './jobs.js';
import type { SeedExtension, SeedSection } from './seed.js';
import type { ServiceProvider } from './services.js';
import type { StreamRoute } from './streams.js';

// A section's entry schema and result, an extension's fields, entity and result are its own: any of them is one of
// these (their `load` is a method, so it is checked both ways where the seed loader hands it what it declared).
export type AnySeedSection = SeedSection<string, z.ZodTypeAny, unknown>;
export type AnySeedExtension = SeedExtension<string, z.ZodRawShape, unknown, unknown>;
/** What a module contributes to the seed file: sections of its own, extensions of earlier modules' sections. */
export type AnySeedEntry = AnySeedSection | AnySeedExtension;

/** A module's part of the demo data: entries of its own sections, and by ref the fields it adds to others' entries. */
type DemoOf<Seed extends readonly AnySeedEntry[]> = {
  [X in Extract<Seed[number], AnySeedSection> as X['key']]?: z.input<X['item']>[];
} & {
  [X in Extract<Seed[number], AnySeedExtension> as X['extends']]?: Record<string, z.input<z.ZodObject<X['fields']>>>;
};

/** Whose ids the API reference's "Try it" examples show: the signed-in portal user. */
export interface ExampleViewer {
  userId: string;
  platformId: string;
}

/**
 * How a module fills one of the contract's sample ids (EXAMPLE_IDS) with a real one: in the demo data (the ids the
 * Postman environment is filled with) and for a signed-in portal user (the API reference's "Try it").
 */
export interface ExampleId {
  /** The demo entry it names, `section.ref` (e.g. `plans.seats`); none when the demo has no such entry. */
  demo?: string;
  /** The viewer's own (e.g. their newest ticket), so "Send" works as it stands; undefined when they have none. */
  of(em: EntityManager, viewer: ExampleViewer): Promise<string | undefined>;
}

/** What a module adds to /metrics, read when Prometheus scrapes. */
interface ModuleMetrics {
  deliveryFailures?: DeliveryFailureGauge;
}

/** A module's deliveries that failed for good (retry window over): `switchboard_delivery_failures{kind}`. */
export interface DeliveryFailureGauge {
  kind: string;
  count(em: EntityManager): Promise<number>;
}

/**
 * Everything the core needs to know about one resource. `modules/index.ts` lists the manifests; the app, the
 * ORM, the seed loader, the worker, the 404/405 table, the demo data and the portal's example ids are built from
 * that list (wiring.ts).
 */
export interface ModuleManifest<Seed extends readonly AnySeedEntry[] = readonly AnySeedEntry[]> {
  name: string;
  entities: readonly EntityClass<object>[];
  /** The contract slices this module implements. */
  routes?: readonly RouteSlice[];
  /** Endpoints that answer with a stream (Server-Sent Events), mounted with the API's authentication. */
  streams?: readonly StreamRoute[];
  /**
   * Callbacks from outside services (e.g. Meta's webhooks), outside the contract: mounted under `/webhooks` before
   * the API's JSON parser and key auth, so a receiver sees the raw body and authenticates the sender itself.
   */
  receivers?(deps: RouteDeps): Router;
  /**
   * Public GETs outside the contract and key auth, mounted at the root with the receivers (e.g. `/media/<token>`,
   * links whose signed token is the permission).
   */
  publicRoutes?(deps: RouteDeps): Router;
  /** Its top-level lists in the seed file, in load order, and the fields it adds to earlier modules' lists. */
  seed?: Seed;
  /** Long-lived objects it provides to routers (started with the server, stopped with it). */
  services?: readonly ServiceProvider[];
  /** The row targets, tasks and named workers it runs in the job worker. */
  jobs?(deps: JobDeps): ModuleJobs;
  /** Its part of the demo data (`DEMO=true`, `pnpm cli seed:demo`): what lets every example request answer 200. */
  demo?: DemoOf<Seed>;
  /** The contract's sample ids it owns, filled with real ones for the demo and the portal's "Try it". */
  examples?: Partial<Record<ExampleIdName, ExampleId>>;
  /**
   * PostgreSQL settings (`name: value`) its statements need on every pooled connection, set when the connection
   * opens (e.g. how its prepared statements are planned).
   */
  sessionSettings?: Readonly<Record<string, string>>;
  metrics?: ModuleMetrics;
}

/** Declares a manifest, keeping its seed sections' types (the seed file and result types derive from them). */
export const defineModule = <const Seed extends readonly AnySeedEntry[] = []>(manifest: ModuleManifest<Seed>) =>
  manifest;
