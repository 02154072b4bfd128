// The rule format's segment fields (20261128100400) through the API as an admin: tag, source,
// referrals, waitlist position, received, opened/clicked and segment references against known
// rows, and refusals (unknown fields, bad values, injection attempts) answered 422 invalid_input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../functions/kit';
import { createTeam, startIsolatedEmulator, untyped, type Team } from '../rls/team-kit';

let team: Team;
const ids: Record<string, string> = {};

async function first<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (!row) throw new Error('no row');
  return row;
}
let vip = '';
let waitlist = '';

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const rows = await sql<{ id: string; label: string }>(
    team.emu,
    `insert into public.subscribers (email, name)
     values ('alice@seg.test', 'Alice'), ('bob@seg.test', 'Bob'), ('carol@seg.test', 'Carol'),
            ('dave@seg.test', 'Dave')
     returning id, split_part(email, '@', 1) as label`,
  );
  for (const r of rows) ids[r.label] = r.id;
  // Sources as the app records them: the setting the form and import functions use.
  await sql(team.emu, `update public.subscribers set signup_source = 'form' where id = $1`, [
    ids.alice,
  ]);
  await sql(team.emu, `update public.subscribers set signup_source = 'import' where id = $1`, [
    ids.bob,
  ]);
  // Bob and Carol came through Alice's link; Dave through Bob's.
  await sql(team.emu, `update public.subscribers set referred_by = $1 where id in ($2, $3)`, [
    ids.alice,
    ids.bob,
    ids.carol,
  ]);
  await sql(team.emu, `update public.subscribers set referred_by = $1 where id = $2`, [
    ids.bob,
    ids.dave,
  ]);
  ({ id: vip } = await first(
    sql<{ id: string }>(team.emu, `insert into public.tags (name) values ('VIP') returning id`),
  ));
  await sql(
    team.emu,
    `insert into public.subscriber_tags (subscriber_id, tag_id) values ($1, $3), ($2, $3)`,
    [ids.alice, ids.carol, vip],
  );
  ({ id: waitlist } = await first(
    sql<{ id: string }>(
      team.emu,
      `insert into public.lists (slug, name, waitlist) values ('seg-wait', 'Wait', true) returning id`,
    ),
  ));
  // Everyone confirms on the waitlist, Dave first: Alice (2 referrals) 1st, Bob (1) 2nd, Dave 3rd,
  // Carol 4th.
  for (const [who, at] of [
    ['dave', '2026-01-01'],
    ['carol', '2026-01-02'],
    ['bob', '2026-01-03'],
    ['alice', '2026-01-04'],
  ] as const) {
    await sql(
      team.emu,
      `insert into public.subscriptions (subscriber_id, list_id, status, confirmed_at)
       values ($1, $2, 'confirmed', $3::timestamptz)`,
      [ids[who], waitlist, at],
    );
  }
  // Alice received two campaigns and opened one today; Bob received one, opened it 40 days ago
  // (and a mail scanner "opened" it today), and clicked today.
  const { id: c1 } = await first(
    sql<{ id: string }>(
      team.emu,
      `insert into public.campaigns (name, status) values ('One', 'draft') returning id`,
    ),
  );
  const { id: c2 } = await first(
    sql<{ id: string }>(
      team.emu,
      `insert into public.campaigns (name, status) values ('Two', 'draft') returning id`,
    ),
  );
  await sql(
    team.emu,
    `insert into public.deliveries (campaign_id, subscriber_id) values ($1, $3), ($2, $3), ($1, $4), ($2, $5)`,
    [c1, c2, ids.alice, ids.bob, ids.carol],
  );
  await sql(
    team.emu,
    `update public.deliveries set status = 'sending', claimed_at = now() where subscriber_id in ($1, $2)`,
    [ids.alice, ids.bob],
  );
  await sql(
    team.emu,
    `update public.deliveries set status = 'sent', sent_at = now() where subscriber_id in ($1, $2)`,
    [ids.alice, ids.bob],
  );
  await sql(
    team.emu,
    `insert into public.events (subscriber_id, campaign_id, type, data, created_at) values
       ($1, $3, 'opened', '{}', now()),
       ($2, $3, 'opened', '{}', now() - interval '40 days'),
       ($2, $3, 'opened', '{"machine": true}', now()),
       ($2, $3, 'clicked', '{}', now())`,
    [ids.alice, ids.bob, c1],
  );
}, 120_000);
afterAll(async () => {
  await team?.emu.stop();
});

type Rule = Record<string, unknown>;

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

const one = (field: string, op: string, value?: unknown) => matching([{ field, op, value }]);

describe('segment fields', () => {
  it('tag has / has_not', async () => {
    expect(await one('tag', 'has', vip)).toEqual(['alice', 'carol']);
    expect(await one('tag', 'has_not', vip)).toEqual(['bob', 'dave']);
  });

  it('source eq / neq', async () => {
    expect(await one('source', 'eq', 'form')).toEqual(['alice']);
    expect(await one('source', 'eq', 'import')).toEqual(['bob']);
    // Inserted with the service key, not through a function that names a source.
    expect(await one('source', 'eq', 'api')).toEqual(['carol', 'dave']);
    expect(await one('source', 'neq', 'api')).toEqual(['alice', 'bob']);
  });

  it('referrals gt / lt', async () => {
    expect(await one('referrals', 'gt', 1)).toEqual(['alice']);
    expect(await one('referrals', 'gt', 0)).toEqual(['alice', 'bob']);
    expect(await one('referrals', 'lt', 1)).toEqual(['carol', 'dave']);
  });

  it('waitlist position gt / lt, ranked by confirmed referrals then confirmation', async () => {
    const at = (op: string, position: number) =>
      one('waitlist_position', op, { list: waitlist, position });
    expect(await at('lt', 3)).toEqual(['alice', 'bob']);
    expect(await at('gt', 3)).toEqual(['carol']);
    expect(await at('gt', 2)).toEqual(['carol', 'dave']);
  });

  it('received gt / lt counts campaigns sent', async () => {
    expect(await one('received', 'gt', 1)).toEqual(['alice']);
    expect(await one('received', 'gt', 0)).toEqual(['alice', 'bob']);
    // Carol's delivery is still queued: not received.
    expect(await one('received', 'lt', 1)).toEqual(['carol', 'dave']);
  });

  it('opened / clicked since, in the last n days, without machine opens', async () => {
    expect(await one('opened', 'since', { days_ago: 30 })).toEqual(['alice']);
    expect(await one('opened', 'since', { days_ago: 60 })).toEqual(['alice', 'bob']);
    expect(await one('opened', 'not_since', { days_ago: 30 })).toEqual(['bob', 'carol', 'dave']);
    expect(await one('clicked', 'since', { days_ago: 1 })).toEqual(['bob']);
    expect(await one('clicked', 'since', '2000-01-01')).toEqual(['bob']);
  });

  it('segment in / not_in compiles the saved rules in place, with other conditions', async () => {
    const { data, error } = await untyped(team.users.admin.client)
      .from('segments')
      .insert({
        name: 'Tagged referrers',
        rules: {
          match: 'any',
          rules: [
            { field: 'tag', op: 'has', value: vip },
            { field: 'referrals', op: 'gt', value: 0 },
          ],
        },
      })
      .select('id')
      .single();
    expect(error).toBeNull();
    const seg = (data as { id: string }).id;
    expect(await one('segment', 'in', seg)).toEqual(['alice', 'bob', 'carol']);
    expect(await one('segment', 'not_in', seg)).toEqual(['dave']);
    expect(
      await matching([
        { field: 'segment', op: 'in', value: seg },
        { field: 'source', op: 'neq', value: 'form' },
      ]),
    ).toEqual(['bob', 'carol']);
  });

  it('a segment whose conditions are unknown for some subscribers matches as its own rules do', async () => {
    // `score` is a number for Alice, text for Bob, absent for Carol and Dave: `gt` is null for
    // the last three (no number to compare), which is no match, in every place the segment is used.
    await sql(
      team.emu,
      `update public.subscribers set attributes = case id
         when $1::uuid then '{"score": 9}'::jsonb when $2::uuid then '{"score": "high"}'::jsonb
         else '{}'::jsonb end
       where id in ($1, $2, $3, $4)`,
      [ids.alice, ids.bob, ids.carol, ids.dave],
    );
    const scored = { field: 'attributes.score', op: 'gt', value: 5 };
    const vipTag = { field: 'tag', op: 'has', value: vip };
    const { data, error } = await untyped(team.users.admin.client)
      .from('segments')
      .insert({
        name: 'High scorers with the tag',
        rules: { match: 'all', rules: [scored, vipTag] },
      })
      .select('id')
      .single();
    expect(error).toBeNull();
    const seg = (data as { id: string }).id;
    const inSeg = { field: 'segment', op: 'in', value: seg };
    const notInSeg = { field: 'segment', op: 'not_in', value: seg };
    // The segment alone, as its rules, and beside another condition in an `any` group.
    expect(await matching([inSeg])).toEqual(['alice']);
    expect(await matching([scored, vipTag])).toEqual(['alice']);
    expect(await matching([inSeg, { field: 'source', op: 'eq', value: 'import' }], 'any')).toEqual([
      'alice',
      'bob',
    ]);
    // Its complement takes every row it does not match, the unknown ones included.
    expect(await matching([notInSeg])).toEqual(['bob', 'carol', 'dave']);
    expect(await matching([notInSeg, vipTag])).toEqual(['carol']);
    // Counted under RLS as the segment editor and the campaign audience count it.
    const count = await untyped(team.users.admin.client).rpc('count_subscribers_matching', {
      p_rules: {
        match: 'all',
        rules: [{ field: 'id', op: 'in', value: Object.values(ids) }, inSeg],
      },
    });
    expect(count.error).toBeNull();
    expect(Number(count.data)).toBe(1);
  });
});

describe('refusals and injection', () => {
  const bad: Array<[Rule, string, string]> = [
    [{ field: 'tags', op: 'has', value: 'x' }, 'rules.0.field', 'unknown field "tags"'],
    [{ field: 'tag', op: 'eq', value: 'x' }, 'rules.0.op', 'tag takes has or has_not'],
    [{ field: 'tag', op: 'has', value: "x' or true --" }, 'rules.0.value', 'must be a tag id'],
    [{ field: 'tag', op: 'has', value: 'VIP' }, 'rules.0.value', 'must be a tag id'],
    [
      { field: 'source', op: 'eq', value: "form' or '1'='1" },
      'rules.0.value',
      'must be form, import, team or api',
    ],
    [{ field: 'source', op: 'contains', value: 'f' }, 'rules.0.op', 'source takes eq or neq'],
    [
      { field: 'referrals', op: 'gt', value: '1 or true' },
      'rules.0.value',
      'must be a whole number, 0 or more',
    ],
    [
      { field: 'referrals', op: 'gt', value: -1 },
      'rules.0.value',
      'must be a whole number, 0 or more',
    ],
    [
      { field: 'received', op: 'gt', value: 1.5 },
      'rules.0.value',
      'must be a whole number, 0 or more',
    ],
    [{ field: 'received', op: 'eq', value: 1 }, 'rules.0.op', 'received takes gt or lt'],
    [
      { field: 'waitlist_position', op: 'lt', value: { list: 'x; drop table lists', position: 1 } },
      'rules.0.value.list',
      'must be a list id',
    ],
    [
      { field: 'waitlist_position', op: 'lt', value: { position: 1, sql: 'true' } },
      'rules.0.value',
      'must be {"list": id, "position": n}',
    ],
    [
      { field: 'opened', op: 'since', value: 'now()) or (true' },
      'rules.0.value',
      'must be a date like 2026-01-31 or {"days_ago": n}',
    ],
    [
      { field: 'clicked', op: 'after', value: '2026-01-01' },
      'rules.0.op',
      'clicked takes since or not_since',
    ],
    [
      { field: 'segment', op: 'in', value: '00000000-0000-0000-0000-000000000000' },
      'rules.0.value',
      'no such segment',
    ],
    [
      { field: 'segment', op: 'in', value: "') or true --" },
      'rules.0.value',
      'must be a segment id',
    ],
    [
      { field: "opened' or true --", op: 'since', value: { days_ago: 1 } },
      'rules.0.field',
      `unknown field "opened' or true --"`,
    ],
  ];
  it.each(bad)('refuses %j at %s', async (rule, path, problem) => {
    expect(await refusal({ match: 'all', rules: [rule] })).toEqual({
      status: 422,
      message: `postbox:invalid_input: ${path}: ${problem}`,
    });
  });

  it('a value that looks like SQL is only ever data', async () => {
    // A well-formed uuid that is no tag: matches nobody, changes nothing.
    expect(await one('tag', 'has', '11111111-1111-1111-1111-111111111111')).toEqual([]);
    const { n } = await first(
      sql<{ n: string }>(team.emu, `select count(*) as n from public.tags`),
    );
    expect(Number(n)).toBe(1);
  });
});
