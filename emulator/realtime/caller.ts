// Runs SQL as a realtime caller: role, JWT claims and realtime.topic set for one transaction (contract §4.6, §6.7).
import type { Db, Queryable } from '../db/types.js';
import type { Identity } from './auth.js';
import { SQL } from './sql.js';

/** Thrown inside a transaction to roll it back while still returning a result. */
class Rollback<T> {
  constructor(readonly value: T) {}
}

/**
 * Runs fn in a transaction that is always rolled back. `setup` runs first as the service's own
 * (superuser) connection, e.g. to insert probe rows; then the caller's context is set.
 */
export async function asCaller<T>(
  db: Db,
  identity: Identity,
  topic: string,
  fn: (tx: Queryable) => Promise<T>,
  setup?: (tx: Queryable) => Promise<void>,
): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      if (setup) await setup(tx);
      const { claims } = identity;
      await tx.query(SQL['set-caller'], [
        identity.role,
        JSON.stringify(claims),
        typeof claims.sub === 'string' ? claims.sub : '',
        identity.role,
        topic,
      ]);
      throw new Rollback(await fn(tx));
    });
  } catch (err) {
    if (err instanceof Rollback) return err.value as T;
    throw err;
  }
  throw new Error('unreachable: caller transaction committed');
}

/** Runs one statement inside a savepoint; false when it fails (e.g. an RLS violation). */
export async function succeeds(tx: Queryable, sql: string, params: unknown[]): Promise<boolean> {
  await tx.query('savepoint realtime_probe');
  try {
    await tx.query(sql, params);
    return true;
  } catch {
    return false;
  } finally {
    await tx.query('rollback to savepoint realtime_probe');
  }
}
