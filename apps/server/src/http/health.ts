import type { MikroORM } from '@mikro-orm/postgresql';
import { Router } from 'express';
import type { Readiness } from '../lifecycle/readiness.js';

function unavailable(message: string) {
  return { success: false, error: 'service_unavailable', message };
}

/**
 * /healthz: the process answers. /readyz: it can serve traffic — the database answers, no migration is pending (an
 * instance that may not migrate waits for `pnpm cli migrate`) and start-up steps such as the demo data are done.
 */
export function healthRoutes(orm: MikroORM, readiness: Readiness): Router {
  const router = Router();
  // Applied migrations never become pending again, so once none is pending the check is skipped.
  let migrated = false;

  router.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { status: 'ok' } });
  });
  router.get('/readyz', async (req, res) => {
    try {
      await orm.em.fork().execute('select 1');
      if (!migrated) {
        const pending = await orm.migrator.getPending();
        if (pending.length) {
          res
            .status(503)
            .json(
              unavailable(
                `${pending.length} database migration(s) pending; run \`pnpm cli migrate\` (or start one instance ` +
                  `with MIGRATE_ON_START=true).`,
              ),
            );
          return;
        }
        migrated = true;
      }
    } catch (error) {
      req.log.warn({ err: error }, 'readiness check failed');
      res.status(503).json(unavailable('Database unreachable.'));
      return;
    }
    const starting = readiness.pending;
    if (starting.length) {
      res.status(503).json(unavailable(`Starting: ${starting.join(', ')}.`));
      return;
    }
    res.json({ success: true, data: { status: 'ready', database: 'up' } });
  });
  return router;
}
