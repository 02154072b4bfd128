// postgres_changes filters and select lists may name only columns the caller's role may read, as
// walrus subscription_check_filters() enforces; a filter never runs on a hidden column.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, Inbox, startTestEmulator } from './test-support.js';

let emu: RunningEmulator;
let anon: SupabaseClient;

type Heard = { kind: 'change' | 'system'; payload: Record<string, unknown> };

beforeAll(async () => {
  emu = await startTestEmulator();
  await emu.db.exec(`
    create table public.people (id int4 primary key, email text, nick text);
    alter table public.people enable row level security;
    grant select (id, nick) on public.people to anon;
    create policy "anyone reads people" on public.people for select to anon using (true);
    create table public.secrets (id int4 primary key, email text);
    alter table public.secrets enable row level security;
    alter publication supabase_realtime add table public.people, public.secrets;
  `);
  anon = client(emu, emu.keys.anon);
});
afterAll(async () => {
  await anon?.removeAllChannels();
  await emu?.stop();
});

/** Joins one binding and returns what it hears: changes and the set-up's system message. */
async function listen(binding: Record<string, unknown>): Promise<Inbox<Heard>> {
  const inbox = new Inbox<Heard>();
  const channel = anon
    .channel(randomUUID())
    .on('postgres_changes' as never, binding as never, (p: Record<string, unknown>) =>
      inbox.push({ kind: 'change', payload: p }),
    )
    .on('system', {}, (p: Record<string, unknown>) => inbox.push({ kind: 'system', payload: p }));
  await new Promise<void>((resolve, reject) =>
    channel.subscribe((status) =>
      status === 'SUBSCRIBED' ? resolve() : reject(new Error(status)),
    ),
  );
  return inbox;
}

const system = (inbox: Inbox<Heard>) => inbox.next((h) => h.kind === 'system');

describe('postgres_changes filters and column privileges', () => {
  it('refuses a filter on a column the role may not select, and never delivers through it', async () => {
    const inbox = await listen({
      event: '*',
      schema: 'public',
      table: 'people',
      filter: 'email=eq.ada@example.com',
    });
    expect((await system(inbox)).payload).toMatchObject({
      status: 'error',
      message: expect.stringContaining('invalid column for filter email'),
    });
    await emu.db.query(`insert into public.people values (1, 'ada@example.com', 'ada')`);
    await inbox.none((h) => h.kind === 'change');
  });

  it('accepts a filter on a column the role may select', async () => {
    const inbox = await listen({
      event: 'INSERT',
      schema: 'public',
      table: 'people',
      filter: 'nick=eq.bo',
    });
    expect((await system(inbox)).payload).toMatchObject({ status: 'ok' });
    await emu.db.query(
      `insert into public.people values (2, 'x@example.com', 'al'), (3, 'bo@example.com', 'bo')`,
    );
    const change = await inbox.next((h) => h.kind === 'change');
    // The hidden column is left out of the record.
    expect(change.payload.new).toEqual({ id: 3, nick: 'bo' });
    await inbox.none((h) => h.kind === 'change');
  });

  it('refuses a select list naming a column the role may not select', async () => {
    const inbox = await listen({
      event: '*',
      schema: 'public',
      table: 'people',
      select: ['email'],
    } as never);
    expect((await system(inbox)).payload).toMatchObject({
      status: 'error',
      message: expect.stringContaining('invalid column for select email'),
    });
  });

  it('refuses any filter on a table the role may not read; without one it hears only Error 401', async () => {
    const filtered = await listen({
      event: '*',
      schema: 'public',
      table: 'secrets',
      filter: 'email=eq.ada@example.com',
    });
    expect((await system(filtered)).payload).toMatchObject({ status: 'error' });
    const unfiltered = await listen({ event: 'INSERT', schema: 'public', table: 'secrets' });
    expect((await system(unfiltered)).payload).toMatchObject({ status: 'ok' });
    await emu.db.query(
      `insert into public.secrets values (1, 'ada@example.com'), (2, 'b@example.com')`,
    );
    for (let i = 0; i < 2; i++) {
      const change = await unfiltered.next((h) => h.kind === 'change');
      expect(change.payload).toMatchObject({ new: {}, errors: ['Error 401: Unauthorized'] });
    }
    await filtered.none((h) => h.kind === 'change');
  });
});
