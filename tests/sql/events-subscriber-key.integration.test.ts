// events.subscriber_id is checked once per statement instead of by a foreign key (migration
// 20261123020000): these are the key's guarantees, each shown to hold — the refusal with the key's
// SQLSTATE and name, all or nothing, the cascade on delete, no id change while referenced, and (on
// native Postgres, where two sessions can overlap) the lock that orders an insert and a delete.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql, startFunctionsEmulator } from '../functions/kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

async function subscriber(): Promise<string> {
  const [row] = await sql<{ id: string }>(
    emu,
    'insert into public.subscribers (email) values ($1) returning id',
    [`key-${randomUUID().slice(0, 8)}@example.com`],
  );
  return row!.id;
}

const eventsOf = async (ids: string[]) =>
  Number(
    (
      await sql<{ n: string }>(
        emu,
        'select count(*) as n from public.events where subscriber_id = any($1)',
        [ids],
      )
    )[0]!.n,
  );

const insertEvents = (ids: string[]) =>
  sql(
    emu,
    `insert into public.events (subscriber_id, type) select id, 'opened' from unnest($1::uuid[]) id`,
    [ids],
  );

async function refusal(work: Promise<unknown>) {
  const err = (await work.then(
    () => null,
    (e: unknown) => e,
  )) as { code?: string; message?: string; detail?: string } | null;
  return err && { code: err.code, message: err.message, detail: err.detail };
}

describe('events.subscriber_id', () => {
  it('refuses an event for nobody with the key’s 23503, and writes none of the statement', async () => {
    const real = await subscriber();
    const ghost = randomUUID();
    expect(await refusal(insertEvents([real, ghost, real]))).toEqual({
      code: '23503',
      message:
        'insert or update on table "events" violates foreign key constraint "events_subscriber_id_fkey"',
      detail: `Key (subscriber_id)=(${ghost}) is not present in table "subscribers".`,
    });
    expect(await eventsOf([real, ghost])).toBe(0);
    // An update to nobody is refused as well; one to a real subscriber and an anonymous event pass.
    await insertEvents([real]);
    expect(
      await refusal(
        sql(emu, 'update public.events set subscriber_id = $1 where subscriber_id = $2', [
          ghost,
          real,
        ]),
      ),
    ).toMatchObject({ code: '23503' });
    await sql(emu, `insert into public.events (subscriber_id, type) values (null, 'deleted')`);
    expect(await eventsOf([real])).toBe(1);
  });

  it('deleting subscribers deletes their events in the same statement, and nobody else’s', async () => {
    const [a, b, kept] = [await subscriber(), await subscriber(), await subscriber()];
    await insertEvents([a, a, b, kept]);
    await sql(emu, 'delete from public.subscribers where id = any($1)', [[a, b]]);
    expect(await eventsOf([a, b])).toBe(0);
    expect(await eventsOf([kept])).toBe(1);
  });

  it('a subscriber’s id cannot change while events name it', async () => {
    const named = await subscriber();
    await insertEvents([named]);
    expect(
      await refusal(
        sql(emu, 'update public.subscribers set id = $1 where id = $2', [randomUUID(), named]),
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
      try {
        // The delete commits first: the insert that waited for it fails.
        const gone = await subscriber();
        await one.query('begin');
        await one.query('delete from public.subscribers where id = $1', [gone]);
        const waiting = refusal(
          two.query(`insert into public.events (subscriber_id, type) values ($1, 'opened')`, [
            gone,
          ]),
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        await one.query('commit');
        expect(await waiting).toMatchObject({ code: '23503' });

        // The insert commits first: the delete waits for it, then takes the new event with it.
        const busy = await subscriber();
        await one.query('begin');
        await one.query(`insert into public.events (subscriber_id, type) values ($1, 'opened')`, [
          busy,
        ]);
        let deleted = false;
        const deleting = two
          .query('delete from public.subscribers where id = $1', [busy])
          .then(() => (deleted = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(deleted).toBe(false);
        await one.query('commit');
        await deleting;
        expect(await eventsOf([busy])).toBe(0);
      } finally {
        await one.end();
        await two.end();
      }
    },
  );
});
