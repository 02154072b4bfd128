// The subscribers data layer against the real schema and PostgREST (emulator): keyset pages in every
// sort, search with wildcards, filters, bulk actions and one subscriber's page, as each role.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { signedInClient, sql, startFunctionsEmulator } from '../../tests/functions/kit';
import type { Role } from '../roles';
import {
  deleteSubscriber,
  getSubscriber,
  getSubscriberEvents,
  setSubscriberStatus,
  setSubscriptionStatus,
} from './subscriber';
import { cursorAfter, cursorBefore, NO_FILTERS, type SubscriberFilters } from './subscriber-query';
import { runBulk, type BulkAction } from './subscriber-bulk';
import { rulesForIds } from './subscriber-rules';
import { addSubscriber, countSubscribers, listSubscribers } from './subscribers';

let emu: RunningEmulator;
const as: Partial<Record<Role, SupabaseClient>> = {};
const tag = randomUUID().slice(0, 8);
let listId = '';

function client(role: Role): SupabaseClient {
  return as[role]!;
}

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  for (const role of ['viewer', 'admin', 'owner'] as const)
    as[role] = await signedInClient(emu, role);
  // 120 subscribers of this run, three sharing one created_at so the id tie-break matters.
  const [list] = await sql<{ id: string }>(
    emu,
    `insert into public.lists (slug, name) values ($1, 'Paging test') returning id`,
    [`paging-${tag}`],
  );
  listId = list!.id;
  await sql(
    emu,
    `insert into public.subscribers (email, name, created_at)
     select format('p%s-%s@example.com', lpad(i::text, 3, '0'), $1::text),
            case when i = 7 then '100%_real' else format('Person %s', i) end,
            case when i between 50 and 52 then timestamptz '2026-01-01 00:50:00.123456+00'
                 else timestamptz '2026-01-01' + i * interval '1 minute' end
     from generate_series(1, 120) i`,
    [tag],
  );
  await sql(
    emu,
    `insert into public.subscriptions (subscriber_id, list_id, status)
     select id, $1, case when email like 'p00%' then 'pending' else 'confirmed' end
     from public.subscribers where email like 'p%-' || $2 || '@example.com' and email < 'p031'`,
    [listId, tag],
  );
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

const mine: SubscriberFilters = { ...NO_FILTERS, search: `-${tag}@` };

/** Walks every page forwards, then back from the last one, and answers both sequences of emails. */
async function walk(filters: SubscriberFilters) {
  const forward: string[][] = [];
  let page = await listSubscribers(client('viewer'), filters, null);
  forward.push(page.rows.map((r) => r.email));
  while (page.hasNext) {
    page = await listSubscribers(client('viewer'), filters, cursorAfter(page.rows.at(-1)!));
    forward.push(page.rows.map((r) => r.email));
  }
  const backward: string[][] = [forward.at(-1)!];
  while (page.hasPrevious) {
    page = await listSubscribers(client('viewer'), filters, cursorBefore(page.rows[0]!));
    backward.unshift(page.rows.map((r) => r.email));
  }
  return { forward, backward };
}

describe('keyset pagination', () => {
  it.each(['created-desc', 'created-asc', 'email-asc'] as const)(
    'visits every row once in %s order, forwards and back',
    async (sort) => {
      const { forward, backward } = await walk({ ...mine, sort });
      expect(forward.map((p) => p.length)).toEqual([50, 50, 20]);
      expect(backward).toEqual(forward);
      const all = forward.flat();
      expect(new Set(all).size).toBe(120);
      if (sort === 'email-asc') expect(all).toEqual([...all].sort());
      if (sort === 'created-asc') expect(all[0]).toBe(`p001-${tag}@example.com`);
      if (sort === 'created-desc') expect(all[0]).toBe(`p120-${tag}@example.com`);
    },
  );

  it('counts all matches, not one page', async () => {
    expect(await countSubscribers(client('viewer'), mine)).toBe(120);
  });
});

describe('search and filters', () => {
  it('matches name or email case-insensitively, with % and _ taken literally', async () => {
    const byName = await listSubscribers(
      client('viewer'),
      { ...NO_FILTERS, search: '100%_REAL' },
      null,
    );
    expect(byName.rows.map((r) => r.email)).toEqual([`p007-${tag}@example.com`]);
    const literal = await listSubscribers(
      client('viewer'),
      { ...NO_FILTERS, search: `p0_1-${tag}` },
      null,
    );
    expect(literal.rows).toEqual([]);
    const quoted = await listSubscribers(
      client('viewer'),
      { ...NO_FILTERS, search: 'a"b,c)' },
      null,
    );
    expect(quoted.rows).toEqual([]);
  });

  it('filters by list and subscription status, and still shows every list of a row', async () => {
    const onList = { ...mine, listId };
    expect(await countSubscribers(client('viewer'), onList)).toBe(30);
    const pending = { ...onList, subscription: 'pending' as const };
    expect(await countSubscribers(client('viewer'), pending)).toBe(9);
    const page = await listSubscribers(client('viewer'), pending, null);
    expect(page.rows).toHaveLength(9);
    expect(page.rows[0]!.subscriptions).toEqual([{ list_id: listId, status: 'pending' }]);
    expect(page.rows[0]).not.toHaveProperty('match');
  });
});

describe('writes by role', () => {
  it('a viewer changes nothing with a bulk action; an admin blocklists in one request', async () => {
    const first = await listSubscribers(
      client('viewer'),
      { ...mine, listId, sort: 'email-asc' },
      null,
    );
    const ids = first.rows.slice(0, 3).map((r) => r.id);
    const bulk = async (role: Role, action: BulkAction) =>
      (await runBulk(client(role), action, rulesForIds(ids))).changed;
    await expect(bulk('viewer', 'blocklist')).rejects.toMatchObject({ status: 403 });
    expect(await bulk('admin', 'blocklist')).toBe(3);
    const blocked = await countSubscribers(client('viewer'), { ...mine, status: 'blocklisted' });
    expect(blocked).toBe(3);
    // Blocklisting unsubscribed them from the list (database trigger), so nothing to unsubscribe.
    expect(await bulk('admin', 'unsubscribe')).toBe(0);
    // Only the owner deletes.
    await expect(bulk('admin', 'delete')).rejects.toMatchObject({ status: 403 });
    expect(await bulk('owner', 'delete')).toBe(3);
    expect(await countSubscribers(client('viewer'), mine)).toBe(117);
  });

  it('adds a subscriber on a list, and reports a duplicate at the email field', async () => {
    const email = `Added-${tag}@Example.com`;
    const added = await addSubscriber(client('admin'), {
      email,
      name: ' New ',
      listIds: [listId],
      status: 'confirmed',
    });
    expect(added.ok).toBe(true);
    const again = await addSubscriber(client('admin'), {
      email,
      name: '',
      listIds: [],
      status: 'pending',
    });
    expect(again).toEqual({
      ok: false,
      field: 'email',
      message: 'That address is already a subscriber.',
    });
    const bad = await addSubscriber(client('admin'), {
      email: 'nope@',
      name: '',
      listIds: [],
      status: 'pending',
    });
    expect(bad).toMatchObject({ ok: false, field: 'email' });
    // SPEC §5's 100 characters are characters: 100 emoji fit (200 UTF-16 units), 101 do not.
    const emoji = await addSubscriber(client('admin'), {
      email: `emoji-${tag}@example.com`,
      name: '📫'.repeat(100),
      listIds: [],
      status: 'pending',
    });
    expect(emoji.ok).toBe(true);
    const tooLong = await addSubscriber(client('admin'), {
      email: `emoji2-${tag}@example.com`,
      name: '📫'.repeat(101),
      listIds: [],
      status: 'pending',
    });
    expect(tooLong).toMatchObject({ ok: false, field: 'name' });
    const refused = await addSubscriber(client('viewer'), {
      email: `v-${tag}@example.com`,
      name: '',
      listIds: [],
      status: 'pending',
    });
    expect(refused).toMatchObject({ ok: false, field: null });
    if (!added.ok) return;
    const detail = await getSubscriber(client('viewer'), added.id);
    expect(detail).toMatchObject({ email: email.toLowerCase(), name: 'New' });
    expect(detail!.subscriptions.map((s) => [s.lists?.slug, s.status])).toEqual([
      [`paging-${tag}`, 'confirmed'],
    ]);
  });

  it('changes one subscription, records it, and deletes as the owner only', async () => {
    const added = await addSubscriber(client('admin'), {
      email: `one-${tag}@example.com`,
      name: '',
      listIds: [listId],
      status: 'pending',
    });
    if (!added.ok) throw new Error(added.message);
    await setSubscriptionStatus(client('admin'), added.id, listId, 'unsubscribed', true);
    await expect(
      setSubscriptionStatus(client('viewer'), added.id, listId, 'confirmed', true),
    ).rejects.toMatchObject({ code: 'PGRST116' });
    const events = await getSubscriberEvents(client('viewer'), added.id);
    expect(events.map((e) => e.type)).toEqual(['unsubscribed', 'subscribed']);
    expect(events[0]!.data).toMatchObject({ from: 'pending', to: 'unsubscribed', source: 'admin' });
    await expect(deleteSubscriber(client('admin'), added.id)).rejects.toMatchObject({
      code: 'PGRST116',
    });
    await deleteSubscriber(client('owner'), added.id);
    expect(await getSubscriber(client('viewer'), added.id)).toBeNull();
    expect(await getSubscriber(client('viewer'), 'not-a-uuid')).toBeNull();
  });

  it('blocklists and enables one subscriber as an admin, never as a viewer', async () => {
    const added = await addSubscriber(client('admin'), {
      email: `block-${tag}@example.com`,
      name: '',
      listIds: [listId],
      status: 'confirmed',
    });
    if (!added.ok) throw new Error(added.message);
    await expect(
      setSubscriberStatus(client('viewer'), added.id, 'blocklisted'),
    ).rejects.toMatchObject({
      code: 'PGRST116',
    });
    await setSubscriberStatus(client('admin'), added.id, 'blocklisted');
    const blocked = await getSubscriber(client('viewer'), added.id);
    expect(blocked?.status).toBe('blocklisted');
    expect(blocked?.subscriptions.map((s) => s.status)).toEqual(['unsubscribed']);
    // SPEC §4: no subscription while blocklisted; enabled again, the admin may resubscribe.
    await expect(
      setSubscriptionStatus(client('admin'), added.id, listId, 'confirmed', true),
    ).rejects.toMatchObject({ code: '23514' });
    await setSubscriberStatus(client('admin'), added.id, 'enabled');
    await setSubscriptionStatus(client('admin'), added.id, listId, 'confirmed', true);
    const events = await getSubscriberEvents(client('viewer'), added.id);
    expect(events[0]).toMatchObject({ type: 'resubscribed' });
  });
});
