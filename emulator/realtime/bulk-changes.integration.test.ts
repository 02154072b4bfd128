// postgres_changes for multi-row statements: every row in order, old_record paired right, big rows, keyless and partitioned tables.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, Inbox, startTestEmulator, subscribed } from './test-support.js';

type Change = {
  table: string;
  eventType: string;
  commit_timestamp: string;
  new: Record<string, unknown>;
  old: Record<string, unknown>;
};

let emu: RunningEmulator;
let service: SupabaseClient;

beforeAll(async () => {
  emu = await startTestEmulator();
  service = client(emu, emu.keys.secret);
});
afterAll(async () => {
  await service?.removeAllChannels();
  await emu?.stop();
});

/** A published table made as a migration would; `definition` is the column list. */
async function table(name: string, definition: string, extra = '') {
  await emu.db.exec(`create table public.${name} (${definition});
    grant select on public.${name} to service_role;
    ${extra}
    alter publication supabase_realtime add table public.${name};`);
}

async function listen(tableName: string): Promise<Inbox<Change>> {
  const inbox = new Inbox<Change>();
  const channel = service
    .channel(randomUUID())
    .on(
      'postgres_changes' as never,
      { event: '*', schema: 'public', table: tableName } as never,
      (p: Change) => inbox.push(p),
    );
  await subscribed(channel);
  return inbox;
}

/** Waits for n changes and takes them out of the inbox, in arrival order. */
async function take(inbox: Inbox<Change>, n: number): Promise<Change[]> {
  await inbox.count(n, 15_000);
  return inbox.items.splice(0, n);
}

describe('postgres_changes for multi-row statements', () => {
  it('delivers every row of one INSERT, UPDATE and DELETE in statement order, old and new paired', async () => {
    await table('bulk', 'id int4 primary key, v text, n int4');
    const inbox = await listen('bulk');
    const N = 600; // several NOTIFY payloads' worth
    await emu.db.query(
      `insert into public.bulk select g, 'row ' || g, g from generate_series(1, ${N}) g`,
    );
    const inserts = await take(inbox, N);
    expect(inserts.map((c) => c.eventType)).toEqual(Array(N).fill('INSERT'));
    expect(inserts.map((c) => c.new.id)).toEqual([...Array(N).keys()].map((i) => i + 1));
    expect(inserts[41]).toMatchObject({ new: { id: 42, v: 'row 42', n: 42 }, old: {} });

    // The key changes too: pairing must follow the row, not the key value.
    await emu.db.query(`update public.bulk set id = id + 1000, v = v || '!'`);
    const updates = await take(inbox, N);
    for (const u of updates) {
      expect(u.eventType).toBe('UPDATE');
      expect(u.old).toEqual({ id: u.new.n as number });
      expect(u.new).toEqual({ id: (u.new.n as number) + 1000, v: `row ${u.new.n}!`, n: u.new.n });
    }
    expect(new Set(updates.map((u) => u.new.n)).size).toBe(N);

    await emu.db.query(`delete from public.bulk where n % 2 = 0`);
    const deletes = await take(inbox, N / 2);
    expect(deletes.map((c) => c.eventType)).toEqual(Array(N / 2).fill('DELETE'));
    expect(deletes.map((c) => c.old).sort((a, b) => (a.id as number) - (b.id as number))).toEqual(
      [...Array(N / 2).keys()].map((i) => ({ id: 1000 + 2 * (i + 1) })),
    );
    await inbox.none();
  });

  it('keeps the order of statements within a transaction and one commit_timestamp', async () => {
    await table('steps', 'id int4 primary key, v text');
    const inbox = await listen('steps');
    await emu.db.transaction(async (tx) => {
      await tx.query(`insert into public.steps select g, 'a' from generate_series(1, 3) g`);
      await tx.query(`update public.steps set v = 'b' where id >= 2`);
      await tx.query(`delete from public.steps where id = 3`);
      await tx.query(`insert into public.steps values (4, 'c')`);
    });
    const got = await take(inbox, 7);
    expect(got.map((c) => `${c.eventType} ${String(c.new.id ?? c.old.id)}`)).toEqual([
      'INSERT 1',
      'INSERT 2',
      'INSERT 3',
      'UPDATE 2',
      'UPDATE 3',
      'DELETE 3',
      'INSERT 4',
    ]);
    expect(new Set(got.map((c) => c.commit_timestamp)).size).toBe(1);
  });

  it('delivers an upsert as its updated rows, then its inserted rows', async () => {
    await table('upserts', 'id int4 primary key, v text');
    const inbox = await listen('upserts');
    await emu.db.query(`insert into public.upserts values (2, 'old'), (4, 'old')`);
    await take(inbox, 2);
    // Postgres fires the statement's UPDATE triggers before its INSERT triggers.
    await emu.db.query(
      `insert into public.upserts values (1, 'new'), (2, 'new'), (3, 'new'), (4, 'new')
       on conflict (id) do update set v = excluded.v`,
    );
    const got = await take(inbox, 4);
    expect(got.map((c) => `${c.eventType} ${String(c.new.id)}`)).toEqual([
      'UPDATE 2',
      'UPDATE 4',
      'INSERT 1',
      'INSERT 3',
    ]);
  });

  it('delivers rows too big for one NOTIFY amid small ones, in order', async () => {
    await table('mixed', 'id int4 primary key, body text');
    const inbox = await listen('mixed');
    const big = (id: number) => `${id}`.padEnd(20_000, 'x');
    await emu.db.query(
      `insert into public.mixed
       select g, case when g in (3, 4, 40) then rpad(g::text, 20000, 'x') else 'small ' || g end
       from generate_series(1, 60) g`,
    );
    const got = await take(inbox, 60);
    expect(got.map((c) => c.new.id)).toEqual([...Array(60).keys()].map((i) => i + 1));
    expect(got[2]!.new.body).toBe(big(3));
    expect(got[3]!.new.body).toBe(big(4));
    expect(got[39]!.new.body).toBe(big(40));
    expect(got[4]!.new.body).toBe('small 5');
    // Half the room or so: each of these travels alone without being stored.
    await emu.db.query(
      `update public.mixed set body = rpad(id::text, 5000, 'y') where id between 10 and 12`,
    );
    const updates = await take(inbox, 3);
    expect(updates.map((c) => [c.old, (c.new.body as string).length])).toEqual([
      [{ id: 10 }, 5000],
      [{ id: 11 }, 5000],
      [{ id: 12 }, 5000],
    ]);
  });

  it('works for a table without a primary key, identical rows included', async () => {
    await table('keyless', 'v text, n int4');
    const inbox = await listen('keyless');
    // Identical rows fill identical payloads, which NOTIFY would merge within a transaction.
    await emu.db.query(`insert into public.keyless select 'same', 1 from generate_series(1, 1500)`);
    const inserts = await take(inbox, 1500);
    expect(
      inserts.every((c) => c.new.v === 'same' && c.new.n === 1 && c.eventType === 'INSERT'),
    ).toBe(true);
    // Postgres refuses UPDATE and DELETE on a published table without a replica identity, so
    // such a table changes only under REPLICA IDENTITY FULL, with the whole old row.
    await expect(emu.db.query(`update public.keyless set n = 2`)).rejects.toThrow(
      /does not have a replica identity/,
    );
    await emu.db.exec(`truncate public.keyless;
      insert into public.keyless values ('a', 1), ('b', 2), ('c', 3);
      alter table public.keyless replica identity full;
      update public.keyless set n = n * 10;
      delete from public.keyless where v <> 'b'`);
    const rest = await take(inbox, 8);
    expect(rest.map((c) => [c.eventType, c.old, c.new])).toEqual([
      ['INSERT', {}, { v: 'a', n: 1 }],
      ['INSERT', {}, { v: 'b', n: 2 }],
      ['INSERT', {}, { v: 'c', n: 3 }],
      ['UPDATE', { v: 'a', n: 1 }, { v: 'a', n: 10 }],
      ['UPDATE', { v: 'b', n: 2 }, { v: 'b', n: 20 }],
      ['UPDATE', { v: 'c', n: 3 }, { v: 'c', n: 30 }],
      ['DELETE', { v: 'a', n: 10 }, {}],
      ['DELETE', { v: 'c', n: 30 }, {}],
    ]);
    await inbox.none();
  });

  it('pairs old and new rows of a keyless table under REPLICA IDENTITY FULL', async () => {
    await table('pairs', 'v int4', 'alter table public.pairs replica identity full;');
    const inbox = await listen('pairs');
    await emu.db.query(`insert into public.pairs select g from generate_series(1, 300) g`);
    await take(inbox, 300);
    await emu.db.query(`update public.pairs set v = v * 10`);
    const updates = await take(inbox, 300);
    for (const u of updates) expect(u.new.v).toBe((u.old.v as number) * 10);
  });

  it('captures partitions row by row, whichever table the statement names', async () => {
    await emu.db
      .exec(`create table public.parted (id int4 primary key, v text) partition by range (id);
      create table public.parted_low partition of public.parted for values from (0) to (100);
      create table public.parted_high partition of public.parted for values from (100) to (1000);
      grant select on public.parted, public.parted_low, public.parted_high to service_role;
      alter publication supabase_realtime add table public.parted;`);
    const low = await listen('parted_low');
    const high = await listen('parted_high');
    await emu.db.query(`insert into public.parted values (1, 'a'), (150, 'b'), (2, 'c')`);
    await emu.db.query(`insert into public.parted_high values (151, 'd')`);
    expect((await take(low, 2)).map((c) => c.new.id)).toEqual([1, 2]);
    expect((await take(high, 2)).map((c) => c.new.id)).toEqual([150, 151]);
  });
});
