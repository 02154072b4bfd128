// Reward milestones of a waitlist (issue 23, waitlist_rewards) with supabase-js and real tokens:
// anyone reads those of a public waitlist (the reader's /waitlist/ page), only members those of a
// private one; admins and owners add, change and remove them, only on waitlists; viewers and
// editors may not; one reward per number of referrals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, startIsolatedEmulator, type Team } from './team-kit';

let team: Team;
let waitlist: string;
let hidden: string;
let plain: string;

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const lists = await team.service.from('lists').select('id, slug');
  waitlist = lists.data!.find((l) => l.slug === 'early-access')!.id;
  plain = lists.data!.find((l) => l.slug === 'newsletter')!.id;
  const made = await team.service
    .from('lists')
    .insert({ slug: 'vip-line', name: 'VIP line', visibility: 'private', waitlist: true })
    .select('id')
    .single();
  hidden = made.data!.id;
  await team.service.from('waitlist_rewards').insert([
    { list_id: waitlist, referrals: 1, reward: 'Stickers' },
    { list_id: hidden, referrals: 2, reward: 'A secret' },
  ]);
}, 120_000);
afterAll(() => team?.emu.stop());

const read = (actor: 'anon' | 'nonMember' | 'viewer', list: string) =>
  team.client(actor).from('waitlist_rewards').select('referrals, reward').eq('list_id', list);

describe('reading rewards', () => {
  it('anyone reads a public waitlist’s, only members a private one’s', async () => {
    for (const actor of ['anon', 'nonMember', 'viewer'] as const) {
      expect((await read(actor, waitlist)).data, actor).toEqual([
        { referrals: 1, reward: 'Stickers' },
      ]);
    }
    expect((await read('anon', hidden)).data).toEqual([]);
    expect((await read('nonMember', hidden)).data).toEqual([]);
    expect((await read('viewer', hidden)).data).toEqual([{ referrals: 2, reward: 'A secret' }]);
  });

  it('the reader page’s embedded read by slug finds them as the anon role', async () => {
    const { data, error } = await team
      .client('anon')
      .from('lists')
      .select('waitlist_rewards(referrals,reward)')
      .eq('slug', 'early-access')
      .maybeSingle();
    expect(error).toBeNull();
    expect(data).toEqual({ waitlist_rewards: [{ referrals: 1, reward: 'Stickers' }] });
  });
});

describe('managing rewards', () => {
  it('refuses anon, viewers and editors', async () => {
    for (const actor of ['anon', 'nonMember', 'viewer', 'editor'] as const) {
      const res = await team
        .client(actor)
        .from('waitlist_rewards')
        .insert({ list_id: waitlist, referrals: 7, reward: 'Nope' });
      expect(res.error, actor).not.toBeNull();
    }
    const gone = await team
      .client('editor')
      .from('waitlist_rewards')
      .delete()
      .eq('list_id', waitlist)
      .select();
    expect(gone.data ?? []).toEqual([]);
    expect((await read('viewer', waitlist)).data).toHaveLength(1);
  });

  it('lets admins and owners add, change and remove them, on waitlists only', async () => {
    const added = await team
      .client('admin')
      .from('waitlist_rewards')
      .insert({ list_id: waitlist, referrals: 3, reward: 'Beta access' })
      .select('id')
      .single();
    expect(added.error).toBeNull();
    const twice = await team
      .client('owner')
      .from('waitlist_rewards')
      .insert({ list_id: waitlist, referrals: 3, reward: 'Again' });
    expect(twice.error?.code).toBe('23505');
    const notWaitlist = await team
      .client('admin')
      .from('waitlist_rewards')
      .insert({ list_id: plain, referrals: 3, reward: 'Nope' });
    expect(notWaitlist.error).not.toBeNull();
    const tooLong = await team
      .client('admin')
      .from('waitlist_rewards')
      .insert({ list_id: waitlist, referrals: 4, reward: 'x'.repeat(201) });
    expect(tooLong.error).not.toBeNull();

    const changed = await team
      .client('owner')
      .from('waitlist_rewards')
      .update({ reward: 'Beta access, first week' })
      .eq('id', added.data!.id)
      .select('reward');
    expect(changed.data).toEqual([{ reward: 'Beta access, first week' }]);
    const removed = await team
      .client('admin')
      .from('waitlist_rewards')
      .delete()
      .eq('id', added.data!.id)
      .select('id');
    expect(removed.data).toHaveLength(1);
    expect((await read('anon', waitlist)).data).toEqual([{ referrals: 1, reward: 'Stickers' }]);
  });
});
