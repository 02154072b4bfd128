// Bulk actions on every match of a filter (bulk_update_subscribers) with real tokens: viewers and
// editors are refused, admins manage subscribers, only the owner deletes (SPEC §6); each action
// writes the events SPEC §4 asks for, and a filter walked in small batches changes every match once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBulk, type BulkAction, type BulkProgress } from '../../lib/admin/subscriber-bulk';
import type { RuleGroup } from '../../lib/admin/subscriber-rules';
import { sql } from '../functions/kit';
import { createTeam, startIsolatedEmulator, untyped, type Team } from '../rls/team-kit';

let team: Team;
const tag = `bulk${randomUUID().slice(0, 6)}`;
const lists: Record<string, string> = {};
const mine: RuleGroup = { match: 'all', rules: [{ field: 'search', op: 'contains', value: tag }] };

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  for (const row of await sql<{ id: string; slug: string }>(
    team.emu,
    `select id, slug from public.lists`,
  ))
    lists[row.slug] = row.id;
  // 30 subscribers on the newsletter: 9 confirmed (-01…-09), 21 pending (-20…-30 for 3 days).
  await sql(
    team.emu,
    `with s as (insert into public.subscribers (email)
                select $1 || '-' || lpad(i::text, 2, '0') || '@example.com' from generate_series(1, 30) i
                returning id, email)
     insert into public.subscriptions (subscriber_id, list_id, status, created_at)
     select s.id, $2::uuid,
            case when s.email like $1 || '-0%' then 'confirmed' else 'pending' end,
            case when s.email like $1 || '-2%' or s.email like $1 || '-30%' then now() - interval '3 days' else now() end
       from s`,
    [tag, lists.newsletter],
  );
}, 120_000);
afterAll(async () => {
  await team?.emu.stop();
});

async function events(
  type: string,
  since: Date,
): Promise<Array<{ data: Record<string, unknown> }>> {
  return sql(
    team.emu,
    `select e.data from public.events e
      where e.type = $1 and e.created_at >= $2
        and (e.subscriber_id is null or e.subscriber_id in
             (select id from public.subscribers where email like $3 || '-%'))`,
    [type, since, tag],
  );
}

const run = (
  actor: 'viewer' | 'editor' | 'admin' | 'owner',
  action: BulkAction,
  rules = mine,
  list: string | null = null,
  batch?: number,
) => runBulk(untyped(team.client(actor)), action, rules, { list }, undefined, batch);

describe('who may run bulk actions', () => {
  it('refuses viewers and editors every action with 403, changing nothing', async () => {
    const before = await sql(team.emu, `select count(*)::int as n from public.events`);
    for (const actor of ['viewer', 'editor'] as const) {
      for (const action of [
        'add',
        'remove',
        'confirm',
        'unsubscribe',
        'blocklist',
        'delete',
      ] as const) {
        await expect(run(actor, action, mine, lists['product-updates']!)).rejects.toMatchObject({
          status: 403,
        });
      }
    }
    await expect(run('admin', 'delete')).rejects.toMatchObject({ status: 403 });
    expect(await sql(team.emu, `select count(*)::int as n from public.events`)).toEqual(before);
    const anon = await untyped(team.anon).rpc('bulk_update_subscribers', {
      p_action: 'blocklist',
      p_rules: mine,
    });
    expect(anon.error).not.toBeNull();
  });

  it('refuses an unknown field before changing anything (422 invalid_input)', async () => {
    await expect(
      run('admin', 'blocklist', {
        match: 'all',
        rules: [{ field: 'nope', op: 'eq', value: 1 } as never],
      }),
    ).rejects.toMatchObject({ status: 422 });
  });
});

describe('an admin on every match of a filter', () => {
  it('adds to a list in batches, each subscriber once, with subscribed events', async () => {
    const since = new Date();
    const seen: BulkProgress[] = [];
    const total = await runBulk(
      untyped(team.users.admin.client),
      'add',
      mine,
      { list: lists['product-updates'], status: 'confirmed' },
      (p) => seen.push(p),
      7,
    );
    expect(total).toEqual({ processed: 30, changed: 30 });
    expect(seen.map((p) => p.processed)).toEqual([7, 14, 21, 28, 30]);
    expect(await events('subscribed', since)).toHaveLength(30);
    // Again: everyone is on the list already.
    expect((await run('admin', 'add', mine, lists['product-updates']!)).changed).toBe(0);
  });

  it('confirms those pending for more than 2 days, and only them', async () => {
    const since = new Date();
    const stale: RuleGroup = {
      match: 'all',
      rules: [
        ...mine.rules,
        {
          field: 'subscription',
          op: 'has',
          value: { list: lists.newsletter, status: 'pending', subscribed_before: { days_ago: 2 } },
        },
      ],
    };
    const { count } = await untyped(team.users.admin.client)
      .rpc('count_subscribers_matching', { p_rules: stale })
      .then((r) => ({ count: r.data }));
    expect(count).toBe(11);
    expect((await run('admin', 'confirm', stale, lists.newsletter!)).changed).toBe(11);
    const confirmed = await events('confirmed', since);
    expect(confirmed).toHaveLength(11);
    expect(confirmed[0]!.data).toMatchObject({ from: 'pending', to: 'confirmed', source: 'admin' });
  });

  it('removes from a list, recording who did it', async () => {
    const since = new Date();
    expect((await run('admin', 'remove', mine, lists['product-updates']!)).changed).toBe(30);
    const removed = await events('removed', since);
    expect(removed).toHaveLength(30);
    expect(removed[0]!.data).toMatchObject({
      list: 'product-updates',
      from: 'confirmed',
      actor: { id: team.users.admin.id, email: team.users.admin.email },
    });
  });

  it('unsubscribes and blocklists, with their events', async () => {
    let since = new Date();
    const firstTen: RuleGroup = {
      match: 'all',
      rules: [{ field: 'email', op: 'starts_with', value: `${tag}-0` }],
    };
    expect((await run('admin', 'unsubscribe', firstTen)).changed).toBe(9);
    expect(await events('unsubscribed', since)).toHaveLength(9);
    since = new Date();
    expect((await run('admin', 'blocklist', mine)).changed).toBe(30);
    const updated = await events('updated', since);
    expect(updated).toHaveLength(30);
    expect(updated[0]!.data).toMatchObject({
      changes: { status: { from: 'enabled', to: 'blocklisted' } },
      actor: { email: team.users.admin.email },
    });
    // Blocklisting unsubscribed the 21 still subscribed to the newsletter.
    expect(await events('unsubscribed', since)).toHaveLength(21);
  });

  it('lets only the owner delete, leaving one anonymous deleted event each', async () => {
    const since = new Date();
    expect((await run('owner', 'delete', mine, null, 8)).changed).toBe(30);
    expect(await events('deleted', since)).toHaveLength(30);
    const left = await sql(
      team.emu,
      `select count(*)::int as n from public.subscribers where email like $1`,
      [`${tag}-%`],
    );
    expect(left).toEqual([{ n: 0 }]);
  });
});
