/**
 * Developer tool: writes a new migration for the difference between the entities and a scratch database that has
 * every committed migration applied. Usage: DATABASE_URL=postgres://… pnpm --filter @switchboard/server
 * migration:create
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../config.js';
import { ormConfig } from '../wiring.js';

const config = loadConfig();
if (!config.DATABASE_URL) throw new Error('DATABASE_URL must point at a scratch database');
const orm = await MikroORM.init(ormConfig(config.DATABASE_URL));
await orm.migrator.up();
const result = await orm.migrator.create();
console.log(result.fileName || 'no changes');
await orm.close();
