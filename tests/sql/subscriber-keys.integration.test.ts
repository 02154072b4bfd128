// Six keys to subscribers are kept once per statement instead of by foreign keys (migration
// 20261202200100, issue 23's bulk delete): subscriber_tags, automation_enrolments,
// automation_sends, private.confirm_nonces, private.confirmation_send_items (ON DELETE CASCADE)
// and subscribers.referred_by (ON DELETE SET NULL). These are the keys' guarantees, each shown to
// hold: the refusal with the key's SQLSTATE and name, all or nothing, the cascade (or SET NULL) in
// the deleting statement, no id change while referenced, and (on native Postgres, where two
// sessions can overlap) the lock that orders an insert and a delete.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql, startFunctionsEmulator } from '../functions/kit';

let emu: RunningEmulator;
let automation: string;
let step: string;
let send: string;

/** The id of the one row a statement returns. */
async function id(query: string, params?: unknown[]): Promise<string> {
  const [row] = await sql<{ id: string }>(emu, query, params);
  return row!.id;
}

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  automation = await id(`insert into public.automations (name) values ('Keys') returning id`);
  step = await id(
    `insert into public.automation_steps (automation_id, position, kind, wait_seconds)
     values ($1, 0, 'wait', 60) returning id`,
    [automation],
  );
  send = await id(`insert into public.confirmation_sends (status) values ('done') returning id`);
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

async function subscriber(referredBy: string | null = null): Promise<string> {
  const [row] = await sql<{ id: string }>(
    emu,
    'insert into public.subscribers (email, referred_by) values ($1, $2) returning id',
    [`keys-${randomUUID().slice(0, 8)}@example.com`, referredBy],
  );
  return row!.id;
}

async function tag(): Promise<string> {
  const [row] = await sql<{ id: string }>(
    emu,
    'insert into public.tags (name) values ($1) returning id',
    [`keys-${randomUUID().slice(0, 8)}`],
  );
  return row!.id;
}

/** One statement writing a row for each id into the table, as the app's own paths do. */
const writers: Record<string, (ids: string[]) => Promise<unknown>> = {
  subscriber_tags: async (ids) =>
    sql(
      emu,
      `insert into public.subscriber_tags (subscriber_id, tag_id) select id, $2 from unnest($1::uuid[]) id`,
      [ids, await tag()],
    ),
  automation_enrolments: (ids) =>
    sql(
      emu,
      `insert into public.automation_enrolments (automation_id, subscriber_id, due_at)
       select $2, id, now() + interval '1 day' from unnest($1::uuid[]) id`,
      [ids, automation],
    ),
  automation_sends: (ids) =>
    sql(
      emu,
      `insert into public.automation_sends (automation_id, step_id, subscriber_id, round, status, attempts)
       select $2, $3, id, row_number() over (), 'sent', 1 from unnest($1::uuid[]) id`,
      [ids, automation, step],
    ),
  confirm_nonces: (ids) =>
    sql(
      emu,
      `insert into private.confirm_nonces (nonce, subscriber_id)
       select gen_random_uuid()::text, id from unnest($1::uuid[]) id`,
      [ids],
    ),
  confirmation_send_items: (ids) =>
    sql(
      emu,
      `insert into private.confirmation_send_items (send_id, subscriber_id)
       select $2, id from unnest($1::uuid[]) id`,
      [ids, send],
    ),
};
const schemaOf = (table: string) => (table.startsWith('confirm') ? 'private' : 'public');

const rowsOf = async (table: string, ids: string[]) =>
  Number(
    (
      await sql<{ n: string }>(
        emu,
        `select count(*) as n from ${schemaOf(table)}.${table} where subscriber_id = any($1)`,
        [ids],
      )
    )[0]!.n,
  );

async function refusal(work: Promise<unknown>) {
  const err = (await work.then(
    () => null,
    (e: unknown) => e,
  )) as { code?: string; message?: string; detail?: string; constraint?: string } | null;
  return err && { code: err.code, message: err.message, detail: err.detail };
}

describe('the keys to subscribers kept per statement', () => {
  it.each(Object.keys(writers))(
    '%s: a row for nobody is refused with the key’s 23503, and none of the statement is written',
    async (table) => {
      const real = await subscriber();
      const ghost = randomUUID();
      expect(await refusal(writers[table]!([real, ghost]))).toEqual({
        code: '23503',
        message: `insert or update on table "${table}" violates foreign key constraint "${table}_subscriber_id_fkey"`,
        detail: `Key (subscriber_id)=(${ghost}) is not present in table "subscribers".`,
      });
      expect(await rowsOf(table, [real, ghost])).toBe(0);
      // Moving a row to nobody is refused as well; rows for real subscribers pass.
      await writers[table]!([real]);
      expect(
        await refusal(
          sql(
            emu,
            `update ${schemaOf(table)}.${table} set subscriber_id = $1 where subscriber_id = $2`,
            [ghost, real],
          ),
        ),
      ).toMatchObject({ code: '23503' });
      expect(await rowsOf(table, [real])).toBe(1);
    },
  );

  it('referred_by names a subscriber: on insert, on update, and a referrer inserted alongside counts', async () => {
    const ghost = randomUUID();
    expect(await refusal(subscriber(ghost))).toEqual({
      code: '23503',
      message:
        'insert or update on table "subscribers" violates foreign key constraint "subscribers_referred_by_fkey"',
      detail: `Key (referred_by)=(${ghost}) is not present in table "subscribers".`,
    });
    const referred = await subscriber();
    expect(
      await refusal(
        sql(emu, 'update public.subscribers set referred_by = $1 where id = $2', [ghost, referred]),
      ),
    ).toMatchObject({ code: '23503' });
    const referrer = randomUUID();
    await sql(
      emu,
      `insert into public.subscribers (id, email, referred_by)
       values ($1, $2, null), (gen_random_uuid(), $3, $1)`,
      [
        referrer,
        `keys-${referrer.slice(0, 8)}@example.com`,
        `keys-by-${referrer.slice(0, 8)}@example.com`,
      ],
    );
    expect(
      await sql(emu, 'select 1 from public.subscribers where referred_by = $1', [referrer]),
    ).toHaveLength(1);
  });

  it('deleting subscribers deletes their rows in the same statement, and nobody else’s; those they referred stay, without a referrer', async () => {
    const [a, b, kept] = [await subscriber(), await subscriber(), await subscriber()];
    const referredByA = await subscriber(a);
    const referredByKept = await subscriber(kept);
    for (const write of Object.values(writers)) await write([a, b, kept]);
    const before = Number(
      (
        await sql<{ n: string }>(
          emu,
          `select count(*) as n from public.events where type = 'untagged'`,
        )
      )[0]!.n,
    );
    await sql(emu, 'delete from public.subscribers where id = any($1)', [[a, b]]);
    for (const table of Object.keys(writers)) {
      expect(await rowsOf(table, [a, b])).toBe(0);
      expect(await rowsOf(table, [kept])).toBe(1);
    }
    const referrers = await sql<{ id: string; referred_by: string | null }>(
      emu,
      'select id, referred_by from public.subscribers where id = any($1)',
      [[referredByA, referredByKept]],
    );
    expect(Object.fromEntries(referrers.map((r) => [r.id, r.referred_by]))).toEqual({
      [referredByA]: null,
      [referredByKept]: kept,
    });
    // A deleted subscriber's tags go with them, writing no 'untagged' event (their history goes too).
    expect(
      Number(
        (
          await sql<{ n: string }>(
            emu,
            `select count(*) as n from public.events where type = 'untagged'`,
          )
        )[0]!.n,
      ),
    ).toBe(before);
  });

  it('a subscriber’s id cannot change while a row names it', async () => {
    for (const [table, write] of Object.entries(writers)) {
      const named = await subscriber();
      await write([named]);
      // Only this row names them (a tag's 'tagged' event would be refused by the events' own check).
      await sql(emu, 'delete from public.events where subscriber_id = $1', [named]);
      expect(
        await refusal(
          sql(emu, 'update public.subscribers set id = $1 where id = $2', [randomUUID(), named]),
        ),
      ).toMatchObject({
        code: '23503',
        message: `update or delete on table "subscribers" violates foreign key constraint "${table}_subscriber_id_fkey" on table "${table}"`,
      });
    }
    const referrer = await subscriber();
    await subscriber(referrer);
    expect(
      await refusal(
        sql(emu, 'update public.subscribers set id = $1 where id = $2', [randomUUID(), referrer]),
      ),
    ).toMatchObject({ code: '23503' });
    const unnamed = await subscriber();
    const moved = randomUUID();
    await sql(emu, 'update public.subscribers set id = $1 where id = $2', [moved, unnamed]);
    expect(await sql(emu, 'select 1 from public.subscribers where id = $1', [moved])).toHaveLength(
      1,
    );
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'an insert and a concurrent delete are ordered by the lock, as the key’s check orders them',
    async () => {
      const connect = async () => {
        const c = new pg.Client({ connectionString: emu.dbUrl! });
        await c.connect();
        return c;
      };
      const [one, two] = [await connect(), await connect()];
      const tagged = await tag();
      const insertTag = (c: pg.Client, id: string) =>
        c.query(`insert into public.subscriber_tags (subscriber_id, tag_id) values ($1, $2)`, [
          id,
          tagged,
        ]);
      try {
        // The delete commits first: the insert that waited for it fails.
        const gone = await subscriber();
        await one.query('begin');
        await one.query('delete from public.subscribers where id = $1', [gone]);
        const waiting = refusal(insertTag(two, gone));
        await new Promise((resolve) => setTimeout(resolve, 300));
        await one.query('commit');
        expect(await waiting).toMatchObject({ code: '23503' });

        // The insert commits first: the delete waits for it, then takes the new row with it.
        const busy = await subscriber();
        await one.query('begin');
        await insertTag(one, busy);
        let deleted = false;
        const deleting = two
          .query('delete from public.subscribers where id = $1', [busy])
          .then(() => (deleted = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(deleted).toBe(false);
        await one.query('commit');
        await deleting;
        expect(await rowsOf('subscriber_tags', [busy])).toBe(0);
      } finally {
        await one.end();
        await two.end();
      }
    },
  );
});
