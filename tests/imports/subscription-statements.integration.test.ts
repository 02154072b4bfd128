// The subscription rules (SPEC §4) when many rows change in one statement, as an import's batches
// do: the statement-level triggers write every transition's events in order, keep the waitlist
// referral counters exact, refuse a blocklisted subscriber for the whole statement and announce a
// waitlist list once; the normalising trigger still fixes the rows that need it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql, startFunctionsEmulator } from '../functions/kit';

let emu: RunningEmulator;
let lists: Record<string, string>;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  const rows = await sql<{ slug: string; id: string }>(emu, 'select slug, id from public.lists');
  lists = Object.fromEntries(rows.map((r) => [r.slug, r.id]));
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

async function subscribers(count: number, referredBy: string | null = null): Promise<string[]> {
  const rows = await sql<{ id: string }>(
    emu,
    `insert into public.subscribers (email, referred_by)
     select 'stmt-' || gen_random_uuid() || '@example.com', $2::uuid from generate_series(1, $1)
     returning id`,
    [count, referredBy],
  );
  return rows.map((r) => r.id);
}

async function eventsOf(ids: string[]) {
  return sql<{ subscriber_id: string; type: string; data: Record<string, unknown> }>(
    emu,
    `select subscriber_id, type, data from public.events
      where subscriber_id = any($1::uuid[]) order by id`,
    [ids],
  );
}

async function referrals(subscriber: string, list: string): Promise<number> {
  const [row] = await sql<{ referrals: number }>(
    emu,
    'select referrals from public.subscriptions where subscriber_id = $1 and list_id = $2',
    [subscriber, list],
  );
  return row!.referrals;
}

describe('subscription changes applied per statement', () => {
  it('writes every transition of a multi-row insert and update, in statement order', async () => {
    const [a, b] = await subscribers(2);
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       values ($1, $3, 'confirmed'), ($2, $3, 'pending')`,
      [a, b, lists['newsletter']],
    );
    expect((await eventsOf([a!, b!])).map((e) => [e.subscriber_id, e.type])).toEqual([
      [a, 'subscribed'],
      [a, 'confirmed'],
      [b, 'subscribed'],
    ]);
    const [first] = await eventsOf([a!]);
    expect(first!.data).toEqual({
      list_id: lists['newsletter'],
      list: 'newsletter',
      from: null,
      to: 'confirmed',
      source: 'system',
      // Who made the change (issue 23): nobody signed in for a statement run as the database.
      actor: null,
    });

    // One statement: a unsubscribes, b confirms; an unchanged status writes nothing.
    await sql(
      emu,
      `update public.subscriptions set status = case subscriber_id when $1 then 'unsubscribed' else 'confirmed' end
        where subscriber_id = any(array[$1, $2]::uuid[])`,
      [a, b],
    );
    await sql(emu, `update public.subscriptions set status = status where subscriber_id = $1`, [b]);
    await sql(
      emu,
      `update public.subscriptions set status = 'confirmed' where subscriber_id = $1`,
      [a],
    );
    const types = (await eventsOf([a!, b!])).map((e) => [e.subscriber_id, e.type, e.data.from]);
    expect(types.slice(3)).toEqual([
      [a, 'unsubscribed', 'confirmed'],
      [b, 'confirmed', 'pending'],
      [a, 'resubscribed', 'unsubscribed'],
    ]);
  });

  it('refuses a statement that would subscribe a blocklisted subscriber, writing nothing', async () => {
    const [ok, blocked] = await subscribers(2);
    await sql(emu, `update public.subscribers set status = 'blocklisted' where id = $1`, [blocked]);
    await expect(
      sql(
        emu,
        `insert into public.subscriptions (subscriber_id, list_id, status)
         values ($1, $3, 'confirmed'), ($2, $3, 'confirmed')`,
        [ok, blocked, lists['newsletter']],
      ),
    ).rejects.toThrow(/blocklisted subscriber cannot be subscribed/);
    const [count] = await sql<{ n: number }>(
      emu,
      'select count(*)::int as n from public.subscriptions where subscriber_id = any($1::uuid[])',
      [[ok, blocked]],
    );
    expect(count!.n).toBe(0);
    // Only the blocklisting above is in the history: the refused statement wrote no event.
    expect(await eventsOf([ok!, blocked!])).toEqual([
      expect.objectContaining({ subscriber_id: blocked, type: 'updated' }),
    ]);
  });

  it('never lets a confirmed subscription go back to pending', async () => {
    const [a] = await subscribers(1);
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status) values ($1, $2, 'confirmed')`,
      [a, lists['newsletter']],
    );
    await expect(
      sql(emu, `update public.subscriptions set status = 'pending' where subscriber_id = $1`, [a]),
    ).rejects.toThrow(/cannot go back to pending/);
  });

  it('keeps the waitlist referral counters exact for rows changed together', async () => {
    const waitlist = lists['early-access']!;
    const [referrer] = await subscribers(1);
    const referred = await subscribers(3, referrer!);
    // The referrer and three referred subscribers confirmed in one statement: counted once each.
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select id, $2, 'confirmed' from unnest($1::uuid[]) as t(id)`,
      [[referrer, ...referred], waitlist],
    );
    expect(await referrals(referrer!, waitlist)).toBe(3);
    // Two leave in one statement, one is deleted.
    await sql(
      emu,
      `update public.subscriptions set status = 'unsubscribed'
        where list_id = $2 and subscriber_id = any($1::uuid[])`,
      [referred.slice(0, 2), waitlist],
    );
    expect(await referrals(referrer!, waitlist)).toBe(1);
    await sql(emu, 'delete from public.subscriptions where subscriber_id = $1 and list_id = $2', [
      referred[2],
      waitlist,
    ]);
    expect(await referrals(referrer!, waitlist)).toBe(0);
    // A new subscription starts with the referrals its subscriber already has on that list.
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select id, $2, 'confirmed' from unnest($1::uuid[]) as t(id)`,
      [referred.slice(0, 2), lists['newsletter']],
    );
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status, referrals)
       values ($1, $2, 'pending', 7)`,
      [referrer, lists['newsletter']],
    );
    expect(await referrals(referrer!, lists['newsletter']!)).toBe(2);
  });

  it('still normalises addresses and names that need it, on insert and update', async () => {
    const tag = Date.now().toString(36);
    const [row] = await sql<{ id: string; email: string; name: string }>(
      emu,
      `insert into public.subscribers (email, name) values ($1, $2) returning id, email, name`,
      [`  Mixed-${tag}@Example.COM `, '  Pat  '],
    );
    expect(row).toMatchObject({ email: `mixed-${tag}@example.com`, name: 'Pat' });
    const [nameless] = await sql<{ name: string }>(
      emu,
      `insert into public.subscribers (email, name) values ($1, null) returning name`,
      [`nameless-${tag}@example.com`],
    );
    expect(nameless!.name).toBe('');
    const [updated] = await sql<{ email: string; name: string }>(
      emu,
      `update public.subscribers set email = $2, name = ' Sam ' where id = $1 returning email, name`,
      [row!.id, ` UPPER-${tag}@EXAMPLE.COM`],
    );
    expect(updated).toEqual({ email: `upper-${tag}@example.com`, name: 'Sam' });
  });

  it('announces a waitlist list once for a statement that changes many of its rows', async () => {
    const waitlist = lists['early-access']!;
    const ids = await subscribers(5);
    const [before] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from realtime.messages where topic = 'waitlist:early-access'`,
    );
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select id, $2, 'confirmed' from unnest($1::uuid[]) as t(id)`,
      [ids, waitlist],
    );
    const [after] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from realtime.messages where topic = 'waitlist:early-access'`,
    );
    expect(after!.n - before!.n).toBe(1);
  });
});
