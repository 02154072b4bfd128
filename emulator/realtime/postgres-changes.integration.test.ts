// postgres_changes through the unchanged supabase-js client: shapes, types, filters, RLS, big rows, publication changes.
import { randomUUID } from 'node:crypto';
import { createClient, postgresChangesFilter, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { signJwt } from '../keys.js';
import { client, Inbox, RawSocket, sleep, startTestEmulator, subscribed } from './test-support.js';

type Frame = unknown[];

type Change = {
  schema: string;
  table: string;
  commit_timestamp: string;
  eventType: string;
  new: Record<string, unknown>;
  old: Record<string, unknown>;
  errors: unknown;
};

let emu: RunningEmulator;
const clients: SupabaseClient[] = [];
const alice = randomUUID();
const bob = randomUUID();

beforeAll(async () => {
  emu = await startTestEmulator();
  // As a migration would: a table with RLS, explicit grants, and membership in the publication.
  await emu.db.exec(`
    create table public.notes (
      id int4 primary key,
      body text,
      tags text[],
      meta jsonb,
      owner uuid,
      done boolean default false,
      amount numeric,
      created_at timestamptz default now()
    );
    alter table public.notes enable row level security;
    grant select, insert, update, delete on public.notes to anon, authenticated, service_role;
    create policy "owners read their notes" on public.notes for select to authenticated
      using (owner = (current_setting('request.jwt.claims', true)::jsonb ->> 'sub')::uuid);
    create policy "anyone reads ownerless notes" on public.notes for select to anon
      using (owner is null);
    create policy "owners write their notes" on public.notes for insert to authenticated
      with check (owner = (current_setting('request.jwt.claims', true)::jsonb ->> 'sub')::uuid);
    alter publication supabase_realtime add table public.notes;
    create table public.later (id int4 primary key, v text);
    grant select on public.later to anon, authenticated, service_role;
  `);
});
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await emu?.stop();
});

function make(key: string): SupabaseClient {
  const c = client(emu, key);
  clients.push(c);
  return c;
}

async function userClient(sub: string): Promise<SupabaseClient> {
  const c = make(emu.keys.anon);
  const now = Math.floor(Date.now() / 1000);
  await c.realtime.setAuth(
    await signJwt({ role: 'authenticated', aud: 'authenticated', sub, iat: now, exp: now + 3600 }),
  );
  return c;
}

async function listen(c: SupabaseClient, filter: Record<string, unknown>, name = randomUUID()) {
  const inbox = new Inbox<Change>();
  const channel = c
    .channel(name)
    .on('postgres_changes' as never, filter as never, (p: Change) => inbox.push(p));
  await subscribed(channel);
  return inbox;
}

describe('postgres_changes', () => {
  it('delivers INSERT, UPDATE and DELETE with upstream shapes and converted types', async () => {
    const inbox = await listen(make(emu.keys.secret), {
      event: '*',
      schema: 'public',
      table: 'notes',
    });
    await emu.db.query(
      `insert into public.notes (id, body, tags, meta, amount, created_at) values (1, 'hello', '{a,b}', '{"k":[1]}', 12.5, '2026-01-02T03:04:05Z')`,
    );
    const insert = await inbox.next((c) => c.eventType === 'INSERT');
    expect(insert).toMatchObject({ schema: 'public', table: 'notes', errors: null, old: {} });
    expect(insert.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(insert.new).toEqual({
      id: 1,
      body: 'hello',
      tags: ['a', 'b'],
      meta: { k: [1] },
      owner: null,
      done: false,
      amount: 12.5,
      created_at: '2026-01-02T03:04:05+00:00',
    });

    await emu.db.query(`update public.notes set body = 'changed' where id = 1`);
    const update = await inbox.next((c) => c.eventType === 'UPDATE');
    expect(update.new).toMatchObject({ id: 1, body: 'changed' });
    expect(update.old).toEqual({ id: 1 }); // primary key only without REPLICA IDENTITY FULL

    await emu.db.query(`delete from public.notes where id = 1`);
    const del = await inbox.next((c) => c.eventType === 'DELETE');
    expect(del.old).toEqual({ id: 1 });
    expect(del.new).toEqual({});
  });

  it('sends the raw wire message the client routes by id', async () => {
    // Column types travel as pg_type names; records as JSON (walrus realtime.apply_rls).
    const s = await RawSocket.open(emu, `apikey=${emu.keys.secret}&vsn=2.0.0`);
    const config = { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'notes' }] };
    s.send(['1', '1', 'realtime:raw', 'phx_join', { config }]);
    const reply = (await s.inbox.next((m) => Array.isArray(m) && m[3] === 'phx_reply')) as Frame;
    const id = (reply[4] as { response: { postgres_changes: [{ id: number }] } }).response
      .postgres_changes[0].id;
    const system = (await s.inbox.next((m) => Array.isArray(m) && m[3] === 'system')) as Frame;
    expect(system).toEqual([
      '1',
      null,
      'realtime:raw',
      'system',
      {
        message: 'Subscribed to PostgreSQL',
        status: 'ok',
        extension: 'postgres_changes',
        channel: 'raw',
      },
    ]);
    await emu.db.query(`insert into public.notes (id, body) values (2, 'x')`);
    const msg = (await s.inbox.next(
      (m) => Array.isArray(m) && m[3] === 'postgres_changes',
    )) as Frame;
    expect(msg.slice(0, 3)).toEqual([null, null, 'realtime:raw']);
    const { ids, data } = msg[4] as { ids: number[]; data: Record<string, unknown> };
    expect(ids).toEqual([id]);
    expect(data.columns).toEqual([
      { name: 'id', type: 'int4' },
      { name: 'body', type: 'text' },
      { name: 'tags', type: '_text' },
      { name: 'meta', type: 'jsonb' },
      { name: 'owner', type: 'uuid' },
      { name: 'done', type: 'bool' },
      { name: 'amount', type: 'numeric' },
      { name: 'created_at', type: 'timestamptz' },
    ]);
    expect(data).toMatchObject({ type: 'INSERT', schema: 'public', table: 'notes', errors: null });
    expect(data.record).toMatchObject({ id: 2, body: 'x', tags: null, done: false });
    expect(data).not.toHaveProperty('old_record');
    s.close();
  });

  it('sends the whole old row under REPLICA IDENTITY FULL', async () => {
    await emu.db.exec(`create table public.full_rows (id int4 primary key, v text);
      grant select on public.full_rows to service_role;
      alter table public.full_rows replica identity full;
      alter publication supabase_realtime add table public.full_rows;
      insert into public.full_rows values (1, 'a');`);
    const inbox = await listen(make(emu.keys.secret), {
      event: '*',
      schema: 'public',
      table: 'full_rows',
    });
    await emu.db.query(`update public.full_rows set v = 'b'`);
    expect((await inbox.next()).old).toEqual({ id: 1, v: 'a' });
    await emu.db.query(`delete from public.full_rows`);
    expect((await inbox.next((c) => c.eventType === 'DELETE')).old).toEqual({ id: 1, v: 'b' });
    // With RLS on, walrus keeps a DELETE's old_record to the key columns even then.
    await emu.db.exec(`alter table public.full_rows enable row level security;
      insert into public.full_rows values (2, 'c');
      delete from public.full_rows;`);
    expect((await inbox.next((c) => c.eventType === 'DELETE')).old).toEqual({ id: 2 });
  });

  it("applies filters: eq neq lt lte gt gte in, and the builder's AND lists, not, like, is, match", async () => {
    const c = make(emu.keys.secret);
    const filters = [
      'id=eq.10',
      'id=neq.10',
      'id=lt.11',
      'id=lte.11',
      'id=gt.11',
      'id=gte.11',
      'body=in.(b,"c,d")',
      // What realtime-js's postgresChangesFilter() builder emits: AND lists, not., like, is.
      postgresChangesFilter().gte('id', 11).like('body', 'c%').build(),
      postgresChangesFilter().not('body', 'in', ['a', 'b']).build(),
      postgresChangesFilter().is('owner', null).ilike('body', 'B').build(),
      postgresChangesFilter().eq('body', 'c,d').build(),
      postgresChangesFilter().match('body', '^[ab]$').isDistinct('id', 10).build(),
    ];
    const inboxes = await Promise.all(
      filters.map((filter) =>
        listen(c, { event: 'INSERT', schema: 'public', table: 'notes', filter }),
      ),
    );
    await emu.db.exec(
      `insert into public.notes (id, body) values (10, 'a'), (11, 'b'), (12, 'c,d')`,
    );
    const seen = async (inbox: Inbox<Change>) => {
      await sleep(300);
      return inbox.items.map((ch) => ch.new.id).sort();
    };
    await inboxes[6]!.count(2);
    expect(await Promise.all(inboxes.map(seen))).toEqual([
      [10],
      [11, 12],
      [10],
      [10, 11],
      [12],
      [11, 12],
      [11, 12],
      [12],
      [12],
      [11],
      [12],
      [11],
    ]);
  });

  it('delivers INSERT and UPDATE only to subscribers whose SELECT policy shows the row', async () => {
    const a = await listen(await userClient(alice), {
      event: '*',
      schema: 'public',
      table: 'notes',
    });
    const b = await listen(await userClient(bob), { event: '*', schema: 'public', table: 'notes' });
    const anon = await listen(make(emu.keys.publishable), {
      event: '*',
      schema: 'public',
      table: 'notes',
    });
    await emu.db.query(`insert into public.notes (id, body, owner) values (20, 'alice''s', $1)`, [
      alice,
    ]);
    await emu.db.query(`insert into public.notes (id, body) values (21, 'public')`);
    expect((await a.next((c) => c.new.id === 20)).new.owner).toBe(alice);
    expect((await anon.next((c) => c.new.id === 21)).new.body).toBe('public');
    await a.none((c) => c.new.id === 21);
    await b.none((c) => c.new.id === 20 || c.new.id === 21);
    await anon.none((c) => c.new.id === 20);
    await emu.db.query(`update public.notes set body = 'still alice''s' where id = 20`);
    expect((await a.next((c) => c.eventType === 'UPDATE')).new.body).toBe("still alice's");
    await b.none((c) => c.eventType === 'UPDATE');
    // DELETE is not filtered by RLS (upstream cannot see a deleted row either).
    await emu.db.query(`delete from public.notes where id = 20`);
    expect((await b.next((c) => c.eventType === 'DELETE')).old).toEqual({ id: 20 });
  });

  it('re-evaluates policies after an access_token update on a joined channel', async () => {
    const c = make(emu.keys.anon);
    const inbox = await listen(c, { event: 'INSERT', schema: 'public', table: 'notes' });
    await emu.db.query(`insert into public.notes (id, owner) values (40, $1)`, [alice]);
    await inbox.none((ch) => ch.new.id === 40);
    const now = Math.floor(Date.now() / 1000);
    await c.realtime.setAuth(
      await signJwt({
        role: 'authenticated',
        aud: 'authenticated',
        sub: alice,
        iat: now,
        exp: now + 3600,
      }),
    );
    await sleep(300); // access_token pushes are not acknowledged
    await emu.db.query(`insert into public.notes (id, owner) values (41, $1)`, [alice]);
    expect((await inbox.next((ch) => ch.new.id === 41)).new.owner).toBe(alice);
  });

  it('delivers writes made through REST by a signed-in user', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await signJwt({
      role: 'authenticated',
      aud: 'authenticated',
      sub: alice,
      iat: now,
      exp: now + 3600,
    });
    // supabase-js's accessToken option feeds both REST and the realtime join.
    const c = createClient(emu.url, emu.keys.publishable, {
      accessToken: async () => token,
    });
    clients.push(c);
    // Resolve the token first: a join sent before the callback answers would go out without it
    // and run as the apikey's role (a client-side race upstream has too, contract §4.2).
    await c.realtime.setAuth();
    const inbox = await listen(c, {
      event: 'INSERT',
      schema: 'public',
      table: 'notes',
      filter: `owner=eq.${alice}`,
    });
    const { error } = await c.from('notes').insert({ id: 60, body: 'via rest', owner: alice });
    expect(error).toBeNull();
    expect((await inbox.next()).new).toMatchObject({ id: 60, body: 'via rest', owner: alice });
  });

  it("limits records to a binding's select list plus the primary key", async () => {
    const inbox = await listen(make(emu.keys.secret), {
      event: 'INSERT',
      schema: 'public',
      table: 'notes',
      select: ['body'],
      filter: 'done=eq.true', // filters still see every column
    });
    await emu.db.exec(
      `insert into public.notes (id, body, done) values (70, 'no', false), (71, 'yes', true)`,
    );
    expect((await inbox.next()).new).toEqual({ id: 71, body: 'yes' });
    await inbox.none();
  });

  it('delivers rows too big for one NOTIFY', async () => {
    const inbox = await listen(make(emu.keys.secret), {
      event: 'INSERT',
      schema: 'public',
      table: 'notes',
    });
    const body = 'x'.repeat(20_000);
    await emu.db.query(`insert into public.notes (id, body) values (30, $1)`, [body]);
    const change = await inbox.next((c) => c.new.id === 30);
    expect(change.new.body).toBe(body);
  });

  it('follows publication membership at run time', async () => {
    const inbox = await listen(make(emu.keys.secret), {
      event: 'INSERT',
      schema: 'public',
      table: 'later',
    });
    await emu.db.query(`insert into public.later values (1, 'before')`);
    await inbox.none();
    await emu.db.exec(`alter publication supabase_realtime add table public.later`);
    await sleep(1500); // the service re-reads pg_publication_tables every second
    await emu.db.query(`insert into public.later values (2, 'after')`);
    expect((await inbox.next()).new).toEqual({ id: 2, v: 'after' });
    await emu.db.exec(`alter publication supabase_realtime drop table public.later`);
    await sleep(1500);
    await emu.db.query(`insert into public.later values (3, 'gone')`);
    await inbox.none();
  });
});
