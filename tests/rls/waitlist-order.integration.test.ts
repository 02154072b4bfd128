// A waitlist's order and reward jumps (issue 23) with supabase-js and real tokens. In the default
// order (SPEC §9: more referrals first) a jump moves nobody; in the order of joining, a reader who
// reaches a milestone with a jump moves up that many places. Every reader of a place agrees: the
// public place (waitlist_status, which the waitlist function answers), the ranked admin view, the
// waitlist_position rule of segments, and Let in's "top N". Only admins and owners change the
// order, and a change is announced on the waitlist's public topic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, startIsolatedEmulator, uniqueEmail, type Team } from './team-kit';

let team: Team;
let line: string;
let target: string;
/** Members in order of joining: A..E, then F (who brings R1 and R2), then R1, R2. */
const people: Record<string, { id: string; code: string }> = {};

const SLUG = 'jump-line';

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const made = await team.service
    .from('lists')
    .insert({ slug: SLUG, name: 'Jump line', visibility: 'public', waitlist: true })
    .select('id')
    .single();
  line = made.data!.id;
  target = (await team.service.from('lists').select('id').eq('slug', 'newsletter').single()).data!
    .id;
  const start = Date.parse('2026-11-01T00:00:00Z');
  const names = ['A', 'B', 'C', 'D', 'E', 'F', 'R1', 'R2'];
  for (const [i, name] of names.entries()) {
    const sub = await team.service
      .from('subscribers')
      .insert({
        email: uniqueEmail(`jump-${name}`),
        referred_by: name.startsWith('R') ? people.F!.id : null,
      })
      .select('id')
      .single();
    const joined = await team.service.from('subscriptions').insert({
      subscriber_id: sub.data!.id,
      list_id: line,
      status: 'confirmed',
      confirmed_at: new Date(start + i * 60_000).toISOString(),
    });
    expect(joined.error).toBeNull();
    // A referral code is given on joining a waitlist.
    const code = await team.service
      .from('subscribers')
      .select('referral_code')
      .eq('id', sub.data!.id)
      .single();
    people[name] = { id: sub.data!.id, code: code.data!.referral_code! };
  }
}, 120_000);
afterAll(() => team?.emu.stop());

const nameOf = (id: string) => Object.entries(people).find(([, p]) => p.id === id)?.[0];

async function adminView(): Promise<string[]> {
  const res = await team.client('viewer').rpc('waitlist_ranking', { p_list: line, p_limit: 500 });
  expect(res.error).toBeNull();
  expect(res.data!.map((r) => r.place)).toEqual(res.data!.map((_, i) => i + 1));
  return res.data!.map((r) => nameOf(r.subscriber_id)!);
}

async function publicPlace(name: string): Promise<number | null> {
  const res = await team.service.rpc('waitlist_status', {
    p_code: people[name]!.code,
    p_list: SLUG,
  });
  expect(res.error).toBeNull();
  return (res.data as { position: number | null }).position;
}

async function ruleMatches(before: number): Promise<string[]> {
  const rules = {
    match: 'all',
    rules: [{ field: 'waitlist_position', op: 'lt', value: { list: line, position: before } }],
  };
  const res = await team.client('admin').rpc('subscribers_matching', { p_rules: rules });
  expect(res.error).toBeNull();
  return (res.data as Array<{ id: string }>).map((r) => nameOf(r.id)!).sort();
}

const setOrder = (actor: 'viewer' | 'editor' | 'admin' | 'owner', order: string) =>
  team.client(actor).from('lists').update({ waitlist_order: order }).eq('id', line).select('id');

describe('a waitlist’s order with reward jumps', () => {
  it('in the referrals order (the default) a jump moves nobody: F leads with 2 referrals', async () => {
    const added = await team
      .client('admin')
      .from('waitlist_rewards')
      .insert({ list_id: line, referrals: 2, reward: 'Move up 3 places', jump: 3 })
      .select('jump')
      .single();
    expect(added.data).toEqual({ jump: 3 });
    expect(await adminView()).toEqual(['F', 'A', 'B', 'C', 'D', 'E', 'R1', 'R2']);
    expect(await publicPlace('F')).toBe(1);
    expect(await publicPlace('C')).toBe(4);
  });

  it('viewers and editors may not change the order; an admin’s change is announced live', async () => {
    for (const actor of ['viewer', 'editor'] as const) {
      expect((await setOrder(actor, 'joined')).data ?? []).toEqual([]);
    }
    expect(await adminView()).toEqual(['F', 'A', 'B', 'C', 'D', 'E', 'R1', 'R2']);
    expect((await setOrder('admin', 'somehow')).error?.code).toBe('23514');

    const heard = new Promise<unknown>((resolve) => {
      team.anon
        .channel(`waitlist:${SLUG}`)
        .on('broadcast', { event: 'positions' }, (msg) => resolve(msg.payload))
        .subscribe();
      setTimeout(() => resolve(null), 8000);
    });
    await new Promise((r) => setTimeout(r, 500));
    const changed = await setOrder('admin', 'joined');
    expect(changed.data).toHaveLength(1);
    expect(await heard).toMatchObject({ list: SLUG });
  });

  it('in the order of joining, F (6th) reaches the milestone and jumps 3 places, to 3rd', async () => {
    const order = ['A', 'B', 'F', 'C', 'D', 'E', 'R1', 'R2'];
    expect(await adminView()).toEqual(order);
    for (const [i, name] of order.entries()) expect(await publicPlace(name), name).toBe(i + 1);
    expect(await ruleMatches(4)).toEqual(['A', 'B', 'F']);
  });

  it('milestones add up, and a jump never goes past the front', async () => {
    await team
      .client('owner')
      .from('waitlist_rewards')
      .insert({ list_id: line, referrals: 1, reward: 'Move up 10 places', jump: 10 });
    expect(await adminView()).toEqual(['F', 'A', 'B', 'C', 'D', 'E', 'R1', 'R2']);
    expect(await publicPlace('F')).toBe(1);
    const negative = await team
      .client('admin')
      .from('waitlist_rewards')
      .insert({ list_id: line, referrals: 5, reward: 'Back', jump: -1 });
    expect(negative.error?.code).toBe('23514');
    await team.service.from('waitlist_rewards').delete().eq('list_id', line).eq('referrals', 1);
    expect(await adminView()).toEqual(['A', 'B', 'F', 'C', 'D', 'E', 'R1', 'R2']);
  });

  it('Let in’s top N follows the line with its jumps', async () => {
    const res = await team
      .client('admin')
      .rpc('let_in_from_waitlist', { p_list: line, p_target: target, p_top: 3 });
    expect(res.error).toBeNull();
    expect(res.data).toMatchObject({ let_in: 3 });
    const moved = await team.service
      .from('subscriptions')
      .select('subscriber_id')
      .eq('list_id', target)
      .in(
        'subscriber_id',
        Object.values(people).map((p) => p.id),
      );
    expect(moved.data!.map((r) => nameOf(r.subscriber_id)).sort()).toEqual(['A', 'B', 'F']);
    expect(await adminView()).toEqual(['C', 'D', 'E', 'R1', 'R2']);
    expect(await publicPlace('C')).toBe(1);
  });
});
