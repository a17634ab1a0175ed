import type { EntityClass } from '@mikro-orm/core';
import type { Router } from 'express';
import type { RouteDeps, RouteSlice } from './implement.js';
import type { JobDeps, ModuleJobs } from './jobs.js';
import type { SeedExtension, SeedSection } from './seed.js';
import type { ServiceProvider } from './services.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a section's entry type is its own
export type AnySeedSection = SeedSection<string, any, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an extension's fields, entity and result are its own
export type AnySeedExtension = SeedExtension<string, any, any, any>;
/** What a module contributes to the seed file: sections of its own, extensions of earlier modules' sections. */
export type AnySeedEntry = AnySeedSection | AnySeedExtension;

/**
 * Everything the core needs to know about one resource. `modules/index.ts` lists the manifests; the app, the
 * ORM, the seed loader, the worker and the 404/405 table are built from that list.
 */
export interface ModuleManifest<Seed extends readonly AnySeedEntry[] = readonly AnySeedEntry[]> {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- entity classes differ in their shape
  entities: readonly EntityClass<any>[];
  /** The contract slices this module implements. */
  routes?: readonly RouteSlice[];
  /**
   * Callbacks from outside services (e.g. Meta's webhooks), outside the contract: mounted under `/webhooks` before
   * the API's JSON parser and key auth, so a receiver sees the raw body and authenticates the sender itself.
   */
  receivers?(deps: RouteDeps): Router;
  /** Its top-level lists in the seed file, in load order, and the fields it adds to earlier modules' lists. */
  seed?: Seed;
  /** Long-lived objects it provides to routers (started with the server, stopped with it). */
  services?: readonly ServiceProvider[];
  /** The delivery jobs it runs in the worker. */
  jobs?(deps: JobDeps): ModuleJobs;
}

/** Declares a manifest, keeping its seed sections' types (the seed file and result types derive from them). */
export const defineModule = <const Seed extends readonly AnySeedEntry[] = []>(manifest: ModuleManifest<Seed>) => manifest;
