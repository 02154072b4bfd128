// Db.transaction's setup statement, readOnly and oneQuery, which REST sends with its first query, on either backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';
import type { Db } from './types.js';

const SETUP = {
  sql: "select set_config('request.path', $1, true), set_config('role', $2, true)",
  params: ['/things', 'anon'],
};

describe('Db.transaction with setup', () => {
  let emu: RunningEmulator;
  let db: Db;

  beforeAll(async () => {
    emu = await startEmulator({
      memory: true,
      port: 0,
      dbPort: null,
      mailWebPort: 0,
      mailSmtpPort: 0,
    });
    db = emu.db;
    await db.exec(
      'create table public.setup_things (id int primary key); grant select, insert on public.setup_things to anon',
    );
  });
  afterAll(() => emu?.stop());

  it('runs the setup before the first query, within the transaction', async () => {
    const rows = await db.transaction(
      async (tx) => {
        const first = await tx.query<{ path: string; role: string }>(
          "select current_setting('request.path') as path, current_user::text as role",
        );
        const second = await tx.query<{ path: string }>(
          "select current_setting('request.path') as path",
        );
        return [...first.rows, ...second.rows];
      },
      { setup: SETUP },
    );
    expect(rows).toEqual([{ path: '/things', role: 'anon' }, { path: '/things' }]);
    // Transaction-local: gone afterwards.
    const after = await db.query<{ path: string | null }>(
      "select current_setting('request.path', true) as path",
    );
    expect(after.rows[0]?.path ?? '').toBe('');
  });

  it('counts the rows the first query wrote, and commits them', async () => {
    const affected = await db.transaction(
      async (tx) =>
        (await tx.query('insert into public.setup_things values (1), (2)')).affectedRows,
      { setup: SETUP },
    );
    expect(affected).toBe(2);
    const { rows } = await db.query<{ n: number }>(
      'select count(*)::int as n from public.setup_things',
    );
    expect(rows[0]?.n).toBe(2);
  });

  it("reports the setup's error, not the aborted transaction's, and rolls back", async () => {
    const failing = { sql: "select set_config('role', $1, true)", params: ['no_such_role'] };
    await expect(
      db.transaction((tx) => tx.query('insert into public.setup_things values (3)'), {
        setup: failing,
      }),
    ).rejects.toMatchObject({ code: '22023' });
    // Also when fn sends nothing at all.
    await expect(db.transaction(async () => 'done', { setup: failing })).rejects.toMatchObject({
      code: '22023',
    });
    const { rows } = await db.query<{ n: number }>(
      'select count(*)::int as n from public.setup_things where id = 3',
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('opens read-only transactions with readOnly', async () => {
    await expect(
      db.transaction((tx) => tx.query('insert into public.setup_things values (4)'), {
        readOnly: true,
        setup: SETUP,
      }),
    ).rejects.toMatchObject({ code: '25006' });
    const read = await db.transaction(
      async (tx) => (await tx.query('select id from public.setup_things order by id')).rows,
      { readOnly: true, setup: SETUP },
    );
    expect(read).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('commits a oneQuery transaction with its query, and rolls it back when the query fails', async () => {
    const affected = await db.transaction(
      async (tx) => (await tx.query('insert into public.setup_things values (10)')).affectedRows,
      { setup: SETUP, oneQuery: true },
    );
    expect(affected).toBe(1);
    // A duplicate key: the COMMIT sent with the insert must not keep the row before it (11).
    await expect(
      db.transaction((tx) => tx.query('insert into public.setup_things values (11), (10)'), {
        setup: SETUP,
        oneQuery: true,
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // The setup's error still wins over the query's.
    await expect(
      db.transaction((tx) => tx.query('insert into public.setup_things values (12)'), {
        setup: { sql: "select set_config('role', $1, true)", params: ['no_such_role'] },
        oneQuery: true,
      }),
    ).rejects.toMatchObject({ code: '22023' });
    const read = await db.transaction(
      async (tx) =>
        (await tx.query('select id from public.setup_things where id >= 10 order by id')).rows,
      { readOnly: true, setup: SETUP, oneQuery: true },
    );
    expect(read).toEqual([{ id: 10 }]);
    // The session is usable and outside any transaction afterwards.
    const { rows } = await db.query<{ open: boolean }>(
      "select current_setting('request.path', true) is distinct from '/things' as open",
    );
    expect(rows[0]?.open).toBe(true);
  });

  it('rejects a second query in a oneQuery transaction without sending it', async () => {
    await expect(
      db.transaction(
        async (tx) => {
          await tx.query('insert into public.setup_things values (20)');
          await tx.query('insert into public.setup_things values (21)');
        },
        { setup: SETUP, oneQuery: true },
      ),
    ).rejects.toThrow(/second query/);
    const { rows } = await db.query<{ id: number }>(
      'select id from public.setup_things where id in (20, 21) order by id',
    );
    // The first went out with its COMMIT; the second never did.
    expect(rows).toEqual([{ id: 20 }]);
  });

  // On native Postgres, a transaction whose statements are already prepared on its connection
  // sends BEGIN, setup, query and COMMIT behind one Sync; the first of a shape goes the
  // statement-by-statement way. Sequential transactions reuse the same few connections, so a
  // dozen rounds run every shape on both paths, and a failure must leave neither the
  // connection nor its prepared statements behind it broken.
  it('keeps repeated prepared transactions apart, through failures of the query and of the COMMIT', async () => {
    await db.exec(
      `create table public.setup_deferred (id int, constraint setup_deferred_u unique (id) deferrable initially deferred);
       grant select, insert on public.setup_deferred to anon`,
    );
    const insert = (values: string, oneQuery = true) =>
      db.transaction(
        async (tx) =>
          (await tx.query(`insert into public.setup_things values ${values}`)).affectedRows,
        { setup: SETUP, oneQuery, prepare: true },
      );
    for (let round = 0; round < 12; round++) {
      const id = 100 + round * 3;
      expect(await insert(`(${id})`)).toBe(1);
      // Fails in the statement: the row before the duplicate is not kept.
      await expect(insert(`(${id + 1}), (${id})`)).rejects.toMatchObject({ code: '23505' });
      // Fails only at COMMIT (a deferred unique constraint).
      await expect(
        db.transaction(
          (tx) => tx.query('insert into public.setup_deferred values ($1), ($1)', [round]),
          { setup: SETUP, oneQuery: true, prepare: true },
        ),
      ).rejects.toMatchObject({ code: '23505' });
      // Not oneQuery: the first query goes with BEGIN and the setup, the second on its own.
      const both = await db.transaction(
        async (tx) => {
          await tx.query(`insert into public.setup_things values (${id + 2})`);
          const { rows } = await tx.query<{ path: string }>(
            "select current_setting('request.path') as path",
          );
          return rows[0]?.path;
        },
        { setup: SETUP, prepare: true },
      );
      expect(both).toBe('/things');
      // A read behind all that sees the settings of its own transaction only.
      const read = await db.transaction(
        async (tx) =>
          (
            await tx.query<{ n: number; role: string }>(
              'select count(*)::int as n, current_user::text as role from public.setup_things where id >= 100',
            )
          ).rows[0],
        { readOnly: true, setup: SETUP, oneQuery: true, prepare: true },
      );
      expect(read).toEqual({ n: (round + 1) * 2, role: 'anon' });
    }
    const { rows } = await db.query<{ n: number; open: boolean }>(
      `select (select count(*)::int from public.setup_deferred) as n,
              current_setting('request.path', true) is distinct from '/things' as open`,
    );
    expect(rows[0]).toEqual({ n: 0, open: true });
  });

  it('rejects a parameter that cannot be sent and leaves the connection usable', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (let round = 0; round < 12; round++) {
      await expect(
        db.transaction((tx) => tx.query('select $1::json as v', [circular]), {
          setup: SETUP,
          oneQuery: true,
        }),
      ).rejects.toThrow();
      const ok = await db.transaction(
        async (tx) => (await tx.query<{ v: number }>('select $1::int as v', [round])).rows[0]?.v,
        { setup: SETUP, oneQuery: true },
      );
      expect(ok).toBe(round);
    }
  });

  // PGlite's one session is shared with wire clients, which may DEALLOCATE or DISCARD; a native
  // pool's connections are the emulator's own, and nothing it sends drops prepared statements.
  it('prepares the setup again after PGlite dropped its prepared statements', async (ctx) => {
    if (db.kind !== 'pglite') ctx.skip();
    const path = async () =>
      db.transaction(
        async (tx) =>
          (await tx.query<{ path: string }>("select current_setting('request.path') as path"))
            .rows[0]?.path,
        { setup: SETUP },
      );
    expect(await path()).toBe('/things');
    await db.exec('deallocate all');
    expect(await path()).toBe('/things');
  });

  it('prepares the first query with prepare, again after PGlite lost only that one', async (ctx) => {
    if (db.kind !== 'pglite') ctx.skip();
    const sql = "select current_setting('request.path') as path, 'prepared' as how";
    const run = () =>
      db.transaction(async (tx) => (await tx.query<{ path: string }>(sql)).rows[0]?.path, {
        setup: SETUP,
        prepare: true,
      });
    expect(await run()).toBe('/things');
    const { rows } = await db.query<{ name: string }>(
      'select name from pg_prepared_statements where statement = $1',
      [sql],
    );
    expect(rows).toHaveLength(1);
    // The setup stays prepared; preparing everything again would fail with 42P05.
    await db.exec(`deallocate ${rows[0]!.name}`);
    expect(await run()).toBe('/things');
    expect(await run()).toBe('/things');
  });
});
