// The waitlist admin (issue 23) with supabase-js and real tokens: every member reads a waitlist in
// rank order with a search; only admins and owners let people in; the top N (or the chosen) leave
// the waitlist and are confirmed on the target list, the others move up, and the public
// `waitlist:<slug>` topic announces it; with the access email they are tagged and a draft narrowed
// to exactly them is made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, startIsolatedEmulator, uniqueEmail, type Team } from './team-kit';

let team: Team;
let waitlist: string;
let target: string;

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const lists = await team.service.from('lists').select('id, slug');
  waitlist = lists.data!.find((l) => l.slug === 'early-access')!.id;
  target = lists.data!.find((l) => l.slug === 'newsletter')!.id;
}, 120_000);
afterAll(() => team?.emu.stop());

/** Adds `n` confirmed members to the waitlist, one after another, and answers their emails. */
async function join(n: number, label: string): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = uniqueEmail(`${label}${i}`);
    const sub = await team.service.from('subscribers').insert({ email }).select('id').single();
    await team.service
      .from('subscriptions')
      .insert({ subscriber_id: sub.data!.id, list_id: waitlist, status: 'confirmed' });
    emails.push(email);
  }
  return emails;
}

const ranking = (actor: 'viewer' | 'owner' | 'anon', search?: string) =>
  team.client(actor).rpc('waitlist_ranking', { p_list: waitlist, p_search: search, p_limit: 500 });

describe('waitlist_ranking', () => {
  it('every member reads the line in rank order; a search keeps the places; anon may not', async () => {
    const [first, second] = await join(2, 'rank');
    const viewer = await ranking('viewer');
    expect(viewer.error).toBeNull();
    const places = viewer.data!.map((r) => r.place);
    expect(places).toEqual(places.map((_, i) => i + 1));
    const total = viewer.data![0]!.total;
    expect(viewer.data).toHaveLength(total);
    const mine = viewer.data!.filter((r) => r.email === first || r.email === second);
    expect(mine[1]!.place).toBe(mine[0]!.place + 1);

    const found = await ranking('viewer', second!.slice(0, 12).toUpperCase());
    expect(found.data).toEqual([expect.objectContaining({ email: second, place: mine[1]!.place })]);
    expect(found.data![0]).toMatchObject({ total, matches: 1 });

    const anon = await ranking('anon');
    expect(anon.error?.code).toBe('42501');
  });
});

describe('let_in_from_waitlist', () => {
  const letIn = (actor: 'viewer' | 'editor' | 'admin' | 'owner', args: object) =>
    team.client(actor).rpc('let_in_from_waitlist', { p_list: waitlist, p_target: target, ...args });

  it('viewers and editors are refused and nothing moves', async () => {
    const before = (await ranking('owner')).data;
    for (const actor of ['viewer', 'editor'] as const) {
      const res = await letIn(actor, { p_top: 1 });
      expect(res.error?.message).toBe('postbox:forbidden: You do not have permission to do that.');
    }
    expect((await ranking('owner')).data).toEqual(before);
  });

  it('an admin lets in the top 2: off the waitlist, confirmed on the target, the rest move up, announced live', async () => {
    await join(3, 'top');
    const before = (await ranking('owner')).data!;
    const heard = new Promise<unknown>((resolve) => {
      const channel = team.anon
        .channel('waitlist:early-access')
        .on('broadcast', { event: 'positions' }, (msg) => resolve(msg.payload))
        .subscribe();
      setTimeout(() => resolve(channel && null), 8000);
    });
    await new Promise((r) => setTimeout(r, 500));

    const res = await letIn('admin', { p_top: 2 });
    expect(res.error).toBeNull();
    expect(res.data).toEqual({
      let_in: 2,
      campaign_id: null,
      welcome_send_id: null,
      welcome_enrolled: 0,
    });
    expect(await heard).toMatchObject({ list: 'early-access' });

    const after = (await ranking('owner')).data!;
    expect(after.map((r) => r.email)).toEqual(before.slice(2).map((r) => r.email));
    expect(after[0]!.place).toBe(1);
    for (const gone of before.slice(0, 2)) {
      const subs = await team.service
        .from('subscriptions')
        .select('list_id, status')
        .eq('subscriber_id', gone.subscriber_id);
      expect(subs.data).toEqual(
        expect.arrayContaining([
          { list_id: waitlist, status: 'unsubscribed' },
          { list_id: target, status: 'confirmed' },
        ]),
      );
    }
  });

  it('the owner lets in chosen people; others keep their order', async () => {
    const before = (await ranking('owner')).data!;
    const chosen = before[before.length - 1]!;
    const res = await letIn('owner', { p_subscribers: [chosen.subscriber_id] });
    expect(res.data).toEqual({
      let_in: 1,
      campaign_id: null,
      welcome_send_id: null,
      welcome_enrolled: 0,
    });
    const after = (await ranking('owner')).data!;
    expect(after.map((r) => r.email)).toEqual(before.slice(0, -1).map((r) => r.email));
  });

  it('with the access email: the people let in are tagged and a draft to exactly them waits in the editor', async () => {
    await join(2, 'access');
    const before = (await ranking('owner')).data!;
    const letInIds = before.slice(0, 2).map((r) => r.subscriber_id);
    const onTarget = async () =>
      (
        await team.service
          .from('subscriptions')
          .select('subscriber_id', { count: 'exact', head: true })
          .eq('list_id', target)
          .eq('status', 'confirmed')
      ).count!;
    const targetBefore = await onTarget();

    const res = await letIn('admin', { p_top: 2, p_access_email: true });
    expect(res.error).toBeNull();
    const { let_in, campaign_id } = res.data as { let_in: number; campaign_id: string };
    expect(let_in).toBe(2);
    // The target list holds others too: the draft's segment narrows it to the two let in.
    expect(await onTarget()).toBeGreaterThan(2);
    expect(await onTarget()).toBe(targetBefore + 2);

    const admin = team.client('admin');
    const campaign = await admin
      .from('campaigns')
      .select(
        'status, subject, body_md, campaign_lists(list_id), campaign_segments(segment_id, mode)',
      )
      .eq('id', campaign_id)
      .single();
    expect(campaign.data).toMatchObject({
      status: 'draft',
      subject: "You're in: {{ site.name }}",
      campaign_lists: [{ list_id: target }],
      campaign_segments: [{ mode: 'include' }],
    });
    expect(campaign.data!.body_md).toContain('{{ subscriber.name | default: "there" }}');
    const segmentId = campaign.data!.campaign_segments[0]!.segment_id;
    const count = await admin.rpc('campaign_audience_count', {
      p_list_ids: [target],
      p_include: [segmentId],
    });
    expect(count.data).toBe(2);

    const segment = await admin.from('segments').select('name, rules').eq('id', segmentId).single();
    expect(segment.data!.name).toMatch(
      /^Let in: Early access waitlist \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    const tagId = (segment.data!.rules as { rules: Array<{ value: string }> }).rules[0]!.value;
    const tagged = await admin.from('subscriber_tags').select('subscriber_id').eq('tag_id', tagId);
    expect(tagged.data!.map((t) => t.subscriber_id).sort()).toEqual([...letInIds].sort());

    // A second let-in in the same second gets a tag and segment of its own.
    await join(1, 'again');
    const again = await letIn('admin', { p_top: 1, p_access_email: true });
    expect(again.error).toBeNull();
    expect((again.data as { campaign_id: string }).campaign_id).not.toBe(campaign_id);
  });

  it('lets nobody in and drafts nothing when the line is empty of the chosen', async () => {
    const res = await letIn('admin', {
      p_subscribers: ['00000000-0000-4000-8000-000000000000'],
      p_access_email: true,
    });
    expect(res.data).toEqual({
      let_in: 0,
      campaign_id: null,
      welcome_send_id: null,
      welcome_enrolled: 0,
    });
  });

  it('refuses more than 10,000, the waitlist itself as target, and neither top nor people', async () => {
    expect((await letIn('admin', { p_top: 10001 })).error?.message).toMatch(/invalid_input: top/);
    expect((await letIn('admin', {})).error?.message).toMatch(/invalid_input: top/);
    const self = await team
      .client('admin')
      .rpc('let_in_from_waitlist', { p_list: waitlist, p_target: waitlist, p_top: 1 });
    expect(self.error?.message).toMatch(/invalid_input: target/);
  });
});
