// The dashboard and lists data layer against the real schema and PostgREST (emulator): the
// security-invoker count functions under RLS, and list writes as each role.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, signedInClient, sql, startFunctionsEmulator } from '../../tests/functions/kit';
import type { Database } from '../database.types';
import type { Role } from '../roles';
import { EMPTY_LIST_FORM } from './list-form';
import { createList, deleteList, listLists, updateList } from './lists';

type Client = SupabaseClient<Database>;
let emu: RunningEmulator;
const as: Partial<Record<Role | 'stranger', Client>> = {};
const tag = randomUUID().slice(0, 8);

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  for (const role of ['viewer', 'admin', 'stranger'] as const)
    as[role] = (await signedInClient(emu, role === 'stranger' ? null : role)) as unknown as Client;
  // Three signups 0, 2 and 40 days ago on a list of this run, one of them blocklisted.
  await sql(
    emu,
    `with l as (insert into public.lists (slug, name, created_at) values ($1, 'Counted', now() + interval '1 day') returning id),
          s as (insert into public.subscribers (email, created_at) values
                  ($2, now()), ($3, now() - interval '2 days'), ($4, now() - interval '40 days')
                returning id, email)
     insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, l.id, case s.email when $2 then 'confirmed' when $3 then 'pending' else 'unsubscribed' end
       from s, l`,
    [`counted-${tag}`, `a-${tag}@example.com`, `b-${tag}@example.com`, `c-${tag}@example.com`],
  );
  await sql(emu, `update public.subscribers set status = 'blocklisted' where email = $1`, [
    `c-${tag}@example.com`,
  ]);
});

afterAll(async () => {
  await emu?.stop();
});

describe('count functions', () => {
  it('count per list for members, zeros included', async () => {
    const result = await listLists(as.viewer!);
    expect(result.error).toBeNull();
    const counted = result.data!.find((l) => l.slug === `counted-${tag}`)!;
    expect(counted.counts).toEqual({ pending: 1, confirmed: 1, unsubscribed: 1 });
    // The newest list comes last (created a day "later" above).
    expect(result.data!.at(-1)!.slug).toBe(`counted-${tag}`);
  });

  it('count subscribers by status and signups per local day', async () => {
    const statuses = await as.viewer!.rpc('subscriber_status_counts');
    expect(statuses.error).toBeNull();
    const byStatus = Object.fromEntries(statuses.data!.map((r) => [r.status, Number(r.total)]));
    expect(byStatus.blocklisted).toBeGreaterThanOrEqual(1);

    const days = await as.viewer!.rpc('signups_per_day', { p_days: 30, p_time_zone: 'UTC' });
    expect(days.error).toBeNull();
    expect(days.data).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(days.data!.at(-1)!.day).toBe(today);
    // The seed's six and this run's newest are today; the one 40 days ago is outside the range.
    const total = days.data!.reduce((n, d) => n + Number(d.signups), 0);
    const [inRange] = await sql<{ count: string }>(
      emu,
      `select count(*) from public.subscribers where created_at >= (now() at time zone 'UTC')::date - 29`,
    );
    expect(total).toBe(Number(inRange!.count));
  });

  it('count nothing for a signed-in stranger (RLS applies)', async () => {
    const lists = await listLists(as.stranger!);
    expect(lists.error).toBeNull();
    for (const list of lists.data!) {
      expect(list.visibility).toBe('public');
      expect(list.counts).toEqual({ pending: 0, confirmed: 0, unsubscribed: 0 });
    }
    expect((await as.stranger!.rpc('subscriber_status_counts')).data).toEqual([]);
    const days = await as.stranger!.rpc('signups_per_day', { p_days: 7 });
    expect(days.data!.every((d) => Number(d.signups) === 0)).toBe(true);
  });

  it('are not callable without signing in', async () => {
    const anon = clientFor(emu, 'publishable');
    const result = await anon.rpc('signups_per_day', { p_days: 7 });
    expect(result.error?.code).toBe('42501');
  });
});

describe('list writes', () => {
  it('let an admin create, edit and delete, and say when a slug is taken', async () => {
    const form = { ...EMPTY_LIST_FORM, name: ' Weekly ', slug: `weekly-${tag}` };
    const created = await createList(as.admin!, form);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.list.name).toBe('Weekly');
    expect(await createList(as.admin!, form)).toEqual({
      ok: false,
      field: 'slug',
      message: 'That slug is taken. Choose another.',
    });
    const updated = await updateList(as.admin!, created.list.id, { ...form, waitlist: true });
    expect(updated.ok && updated.list.waitlist).toBe(true);
    expect(await deleteList(as.admin!, created.list.id)).toEqual({ ok: true });
    expect((await deleteList(as.admin!, created.list.id)).ok).toBe(false);
  });

  it('refuse a viewer and change nothing', async () => {
    const insert = await createList(as.viewer!, {
      ...EMPTY_LIST_FORM,
      name: 'X',
      slug: `x-${tag}`,
    });
    expect(insert).toEqual({
      ok: false,
      field: null,
      message: 'You do not have permission to do that.',
    });
    const [target] = await sql<{ id: string }>(emu, `select id from public.lists where slug = $1`, [
      `counted-${tag}`,
    ]);
    const update = await updateList(as.viewer!, target!.id, {
      ...EMPTY_LIST_FORM,
      name: 'Hijacked',
      slug: 'hijacked',
    });
    expect(update.ok).toBe(false);
    expect((await deleteList(as.viewer!, target!.id)).ok).toBe(false);
    const [row] = await sql<{ name: string }>(emu, `select name from public.lists where id = $1`, [
      target!.id,
    ]);
    expect(row!.name).toBe('Counted');
  });
});
