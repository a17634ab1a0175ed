import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from './secrets.js';

/** What re-encrypting one kind of stored secret did. */
export interface RekeyCount {
  /** Values encrypted again with the current key. */
  rekeyed: number;
  /** Values the current key had encrypted already. */
  current: number;
}

/** Rows read and rewritten per transaction: the table is never locked as a whole. */
const BATCH = 500;

/**
 * Re-encrypts the secret `columns` of every `entity` row with the box's current key (`pnpm cli secrets rekey`),
 * each value bound to the context it was sealed with. A value is replaced only if it is still the one read, so a
 * secret written meanwhile (a rotation, a reconnection) is never overwritten with an older one.
 */
export async function resealColumns<Row extends { id: string }, Column extends keyof Row & string>(
  em: EntityManager,
  box: SecretBox,
  entity: EntityClass<Row>,
  columns: readonly Column[],
  contextOf: (row: Row, column: Column) => string,
  /** Other fields `contextOf` reads. */
  alsoRead: readonly (keyof Row & string)[] = [],
): Promise<RekeyCount> {
  const count: RekeyCount = { rekeyed: 0, current: 0 };
  let after: string | undefined;
  for (;;) {
    // Library seam: MikroORM's filter, field and order types cannot resolve the properties of a generic entity.
    const rows = (await em.fork().find(entity, (after === undefined ? {} : { id: { $gt: after } }) as never, {
      fields: ['id', ...alsoRead, ...columns] as never,
      orderBy: { id: 'asc' } as never,
      limit: BATCH,
    })) as Row[];
    if (rows.length === 0) return count;
    await em.fork().transactional(async (tx) => {
      for (const row of rows) {
        for (const column of columns) {
          const stored = row[column] as string | null;
          if (!stored) continue;
          const resealed = box.reseal(stored, contextOf(row, column));
          if (resealed === undefined) count.current++;
          else
            // Library seam, as for the find above.
            count.rekeyed += await tx.nativeUpdate(
              entity,
              { id: row.id, [column]: stored } as never,
              {
                [column]: resealed,
              } as never,
            );
        }
      }
    });
    after = rows.at(-1)!.id;
  }
}
