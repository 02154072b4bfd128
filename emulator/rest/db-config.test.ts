// The in-database config store: reloads that answer out of order must not leave a stale config.
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/types.js';
import { createDbConfigStore, type RestDbConfig } from './db-config.js';

const base: RestDbConfig = {
  aggregatesEnabled: false,
  planEnabled: false,
  txEnd: null,
  maxRows: 1000,
  extraSearchPath: ['extensions'],
};

/** A Db whose reads stay pending until the test answers them, in whatever order it likes. */
function pendingReads() {
  const answers: Array<(rows: Array<{ key: string; value: string }>) => void> = [];
  const db = {
    kind: 'postgres',
    query: () =>
      new Promise((resolve) =>
        answers.push((rows) => resolve({ rows, fields: [], affectedRows: 0 })),
      ),
    listen: () => Promise.resolve(() => Promise.resolve()),
  } as unknown as Db;
  return { db, answers };
}

describe('createDbConfigStore', () => {
  it('keeps the latest read when an earlier reload answers last', async () => {
    const { db, answers } = pendingReads();
    const store = createDbConfigStore(db, base, () => undefined);
    answers[0]!([]);
    await store.ready();

    const older = store.reload();
    const newer = store.reload();
    answers[2]!([{ key: 'db_tx_end', value: 'commit' }]);
    await newer;
    answers[1]!([{ key: 'db_tx_end', value: 'rollback' }]);
    await older;
    expect(store.current().txEnd).toBe('commit');
  });
});
