// The subscriber rule compiler (20261127400110) through the API as an admin: every field and
// operator against known rows, nested groups, and refusals (unknown fields, bad values, injection
// attempts in values, attribute names and field names) answered 422 invalid_input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../functions/kit';
import { createTeam, startIsolatedEmulator, untyped, type Team } from '../rls/team-kit';

let team: Team;
const ids: Record<string, string> = {};

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const rows = await sql<{ id: string; label: string }>(
    team.emu,
    `insert into public.subscribers (email, name, attributes, status, created_at)
     values ('alice@example.com', 'Alice Smith', '{"plan":"pro","seats":5,"vip":true,"renew":"2026-03-01"}', 'enabled', '2026-01-01T00:00:00Z'),
            ('bob@test.org', 'Bob', '{"plan":"free","seats":"2"}', 'enabled', '2025-06-01T00:00:00Z'),
            ('carol_100%@example.com', '', '{}', 'enabled', now())
     returning id, split_part(email, '@', 1) as label`,
  );
  for (const r of rows) ids[r.label.replace(/_.*/, '')] = r.id;
  await sql(
    team.emu,
    `insert into public.subscriptions (subscriber_id, list_id, status, created_at)
     select $1::uuid, id, 'confirmed', '2026-01-01'::timestamptz from public.lists where slug = 'newsletter'
     union all select $2::uuid, id, 'unsubscribed', '2025-06-01' from public.lists where slug = 'newsletter'
     union all select $3::uuid, id, 'pending', now() - interval '3 days' from public.lists where slug = 'newsletter'`,
    [ids.alice, ids.bob, ids.carol],
  );
  // A status change that goes through the triggers: Bob is blocklisted.
  await sql(team.emu, `update public.subscribers set status = 'blocklisted' where id = $1`, [
    ids.bob,
  ]);
}, 120_000);
afterAll(async () => {
  await team?.emu.stop();
});

type Rule = Record<string, unknown>;

/** Which of alice/bob/carol match `rules` (the seed's subscribers are fenced off by id). */
async function matching(rules: Rule[], match: 'all' | 'any' = 'all'): Promise<string[]> {
  const fence = { field: 'id', op: 'in', value: Object.values(ids) };
  const { data, error } = await untyped(team.users.admin.client).rpc('subscribers_matching', {
    p_rules: { match: 'all', rules: [fence, { match, rules }] },
    p_sort: 'email-asc',
  });
  if (error) throw new Error(`${error.code}: ${error.message}`);
  const names = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
  return (data as Array<{ id: string }>).map((r) => names.get(r.id)!);
}

async function refusal(rules: unknown): Promise<{ status: number; message: string }> {
  const result = await untyped(team.users.admin.client).rpc('count_subscribers_matching', {
    p_rules: rules,
  });
  expect(result.data).toBeNull();
  return { status: result.status, message: result.error?.message ?? '' };
}

describe('fields and operators', () => {
  it('search matches email or name, case-insensitively and literally', async () => {
    expect(await matching([{ field: 'search', op: 'contains', value: 'SMITH' }])).toEqual([
      'alice',
    ]);
    expect(await matching([{ field: 'search', op: 'contains', value: '_100%' }])).toEqual([
      'carol',
    ]);
    expect(await matching([{ field: 'search', op: 'contains', value: '%' }])).toEqual(['carol']);
  });

  it('email and name', async () => {
    const r = (field: string, op: string, value?: unknown) => matching([{ field, op, value }]);
    expect(await r('email', 'eq', ' Bob@Test.org ')).toEqual(['bob']);
    expect(await r('email', 'neq', 'bob@test.org')).toEqual(['alice', 'carol']);
    expect(await r('email', 'contains', 'example')).toEqual(['alice', 'carol']);
    expect(await r('email', 'not_contains', 'example')).toEqual(['bob']);
    expect(await r('email', 'starts_with', 'car')).toEqual(['carol']);
    expect(await r('email', 'ends_with', '.org')).toEqual(['bob']);
    expect(await r('name', 'eq', 'alice smith')).toEqual(['alice']);
    expect(await r('name', 'empty')).toEqual(['carol']);
    expect(await r('name', 'not_empty')).toEqual(['alice', 'bob']);
    expect(await r('name', 'starts_with', 'b')).toEqual(['bob']);
  });

  it('subscriber status and signup date (absolute and days ago)', async () => {
    expect(await matching([{ field: 'status', op: 'eq', value: 'blocklisted' }])).toEqual(['bob']);
    expect(await matching([{ field: 'status', op: 'neq', value: 'blocklisted' }])).toEqual([
      'alice',
      'carol',
    ]);
    expect(await matching([{ field: 'created_at', op: 'before', value: '2025-12-31' }])).toEqual([
      'bob',
    ]);
    expect(await matching([{ field: 'created_at', op: 'after', value: { days_ago: 7 } }])).toEqual([
      'carol',
    ]);
  });

  it('subscriptions: list, status and dates (pending for more than 2 days)', async () => {
    const list = (
      await sql<{ id: string }>(team.emu, `select id from public.lists where slug = 'newsletter'`)
    )[0]!.id;
    const has = (value: unknown, op = 'has') => matching([{ field: 'subscription', op, value }]);
    expect(await has({ list })).toEqual(['alice', 'bob', 'carol']);
    expect(await has({ list, status: 'confirmed' })).toEqual(['alice']);
    // Blocklisting unsubscribed Bob from every list; his subscription was unsubscribed already.
    expect(await has({ status: 'unsubscribed' })).toEqual(['bob']);
    expect(await has({ status: 'pending', subscribed_before: { days_ago: 2 } })).toEqual(['carol']);
    expect(await has({ status: 'pending', subscribed_before: { days_ago: 4 } })).toEqual([]);
    expect(await has({ confirmed_after: '2025-12-01' })).toEqual(['alice']);
    expect(await has({ status: 'confirmed' }, 'has_not')).toEqual(['bob', 'carol']);
  });

  it('attributes: equality by text, numbers, dates, existence', async () => {
    const a = (op: string, value?: unknown, key = 'plan') =>
      matching([{ field: `attributes.${key}`, op, value }]);
    expect(await a('eq', 'pro')).toEqual(['alice']);
    expect(await a('neq', 'pro')).toEqual(['bob', 'carol']);
    expect(await a('eq', true, 'vip')).toEqual(['alice']);
    expect(await a('contains', 'RE')).toEqual(['bob']);
    expect(await a('not_contains', 'r')).toEqual(['carol']);
    expect(await a('exists')).toEqual(['alice', 'bob']);
    expect(await a('not_exists')).toEqual(['carol']);
    // "2" as text counts as a number; 5 is one.
    expect(await a('gt', 3, 'seats')).toEqual(['alice']);
    expect(await a('lt', 3, 'seats')).toEqual(['bob']);
    expect(await a('after', '2026-02-01', 'renew')).toEqual(['alice']);
    expect(await a('before', '2026-02-01', 'renew')).toEqual([]);
  });

  it('groups: all, any, nested, and an empty group matches everyone', async () => {
    expect(
      await matching(
        [
          { field: 'email', op: 'starts_with', value: 'alice' },
          { field: 'email', op: 'starts_with', value: 'bob' },
        ],
        'any',
      ),
    ).toEqual(['alice', 'bob']);
    expect(
      await matching([
        { field: 'status', op: 'eq', value: 'enabled' },
        {
          match: 'any',
          rules: [
            { field: 'attributes.plan', op: 'eq', value: 'free' },
            { field: 'name', op: 'empty' },
          ],
        },
      ]),
    ).toEqual(['carol']);
    expect(await matching([])).toEqual(['alice', 'bob', 'carol']);
    expect(await matching([{ match: 'any', rules: [] }])).toEqual(['alice', 'bob', 'carol']);
  });
});

describe('refusals and injection', () => {
  it('refuses an unknown field with 422 invalid_input naming it', async () => {
    const r = await refusal({ match: 'all', rules: [{ field: 'password', op: 'eq', value: 'x' }] });
    expect(r).toEqual({
      status: 422,
      message: 'postbox:invalid_input: rules.0.field: unknown field "password"',
    });
  });

  it('refuses SQL in a field name, an operator, a group or a nested path', async () => {
    const cases: Array<[unknown, string]> = [
      [
        {
          match: 'all',
          rules: [{ field: 'email; drop table public.subscribers--', op: 'eq', value: 'a' }],
        },
        'rules.0.field',
      ],
      [
        { match: 'all', rules: [{ field: 'email', op: '= email or true --', value: 'a' }] },
        'rules.0.op',
      ],
      [
        { match: 'all', rules: [{ field: "attributes.x') or true --", op: 'exists' }] },
        'rules.0.field',
      ],
      [
        { match: 'all', rules: [{ field: 'status', op: 'eq', value: "enabled' or '1'='1" }] },
        'rules.0.value',
      ],
      [{ match: 'all) or (true', rules: [] }, 'match'],
      [
        {
          match: 'all',
          rules: [{ match: 'any', rules: [{ field: 'id', op: 'in', value: ["x' or true--"] }] }],
        },
        'rules.0.rules.0.value',
      ],
      [
        {
          match: 'all',
          rules: [
            { field: 'created_at', op: 'after', value: "2026-01-01'::timestamptz or true--" },
          ],
        },
        'rules.0.value',
      ],
      [{ match: 'all', rules: [{ field: 'email', op: 'eq', value: 'a', extra: 1 }] }, 'rules.0'],
      [
        { match: 'all', rules: [{ field: 'subscription', op: 'has', value: { list: 'nope' } }] },
        'rules.0.value.list',
      ],
      [
        { match: 'all', rules: [{ field: 'attributes.seats', op: 'gt', value: '1 or 1=1' }] },
        'rules.0.value',
      ],
      [[1, 2], 'rules'],
    ];
    for (const [rules, path] of cases) {
      const r = await refusal(rules);
      expect(r.status, JSON.stringify(rules)).toBe(422);
      expect(r.message, JSON.stringify(rules)).toMatch(
        new RegExp(`^postbox:invalid_input: ${path.replace(/\./g, '\\.')}: `),
      );
    }
  });

  it('treats SQL in values as text: nothing matches and nothing changes', async () => {
    const before = await sql(team.emu, 'select count(*)::int as n from public.subscribers');
    for (const value of [
      "x' or '1'='1",
      "'; delete from public.subscribers; --",
      '$1) or (true',
      "%' or 1=1 --",
    ]) {
      expect(await matching([{ field: 'email', op: 'eq', value }])).toEqual([]);
      expect(await matching([{ field: 'search', op: 'contains', value }])).toEqual([]);
      expect(await matching([{ field: 'attributes.plan', op: 'eq', value }])).toEqual([]);
    }
    expect(await sql(team.emu, 'select count(*)::int as n from public.subscribers')).toEqual(
      before,
    );
  });

  it('limits a filter to 20 conditions and 3 levels', async () => {
    const many = Array.from({ length: 21 }, () => ({ field: 'name', op: 'empty' }));
    expect((await refusal({ match: 'all', rules: many })).message).toMatch(/at most 20 conditions/);
    const deep = {
      match: 'all',
      rules: [{ match: 'all', rules: [{ match: 'all', rules: [{ match: 'all', rules: [] }] }] }],
    };
    expect((await refusal(deep)).message).toMatch(/nest at most 3 deep/);
  });
});

describe('row-level security', () => {
  it('counts what the caller may read: members all, others nothing', async () => {
    const rules = { match: 'all', rules: [{ field: 'id', op: 'in', value: Object.values(ids) }] };
    for (const actor of ['viewer', 'editor', 'admin', 'owner'] as const) {
      const r = await untyped(team.client(actor)).rpc('count_subscribers_matching', {
        p_rules: rules,
      });
      expect(r.data, actor).toBe(3);
    }
    const stranger = await untyped(team.client('nonMember')).rpc('count_subscribers_matching', {
      p_rules: rules,
    });
    expect(stranger.data).toBe(0);
    const anon = await untyped(team.anon).rpc('count_subscribers_matching', { p_rules: rules });
    expect(anon.error).not.toBeNull();
  });
});
