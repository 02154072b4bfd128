// Segments and campaign audiences (20261128100300..100600) through supabase-js with real tokens:
// who reads and writes segments, rules checked on save, the editor's preview, the live audience
// count, and a send to "list minus segment" fixing exactly those recipients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../functions/kit';
import { createTeam, startIsolatedEmulator, untyped, type Team } from '../rls/team-kit';

let team: Team;
let list = '';
const ids: string[] = [];

async function first<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (!row) throw new Error('no row');
  return row;
}

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  ({ id: list } = await first(
    sql<{ id: string }>(
      team.emu,
      `insert into public.lists (slug, name) values ('aud', 'Audience') returning id`,
    ),
  ));
  // Six subscribers confirmed on the list; three are on the "pro" plan; the sixth is blocklisted
  // after confirming (so unsubscribed), and one more is only pending.
  const rows = await sql<{ id: string }>(
    team.emu,
    `insert into public.subscribers (email, attributes)
     select 'aud-' || n || '@aud.test', jsonb_build_object('plan', case when n % 2 = 0 then 'pro' else 'free' end)
       from generate_series(1, 7) n returning id`,
  );
  ids.push(...rows.map((r) => r.id));
  await sql(
    team.emu,
    `insert into public.subscriptions (subscriber_id, list_id, status)
     select id, $1, case when email = 'aud-7@aud.test' then 'pending' else 'confirmed' end
       from public.subscribers where email like '%@aud.test'`,
    [list],
  );
  await sql(team.emu, `update public.subscribers set status = 'blocklisted' where email = $1`, [
    'aud-6@aud.test',
  ]);
}, 120_000);
afterAll(async () => {
  await team?.emu.stop();
});

const pro = { match: 'all', rules: [{ field: 'attributes.plan', op: 'eq', value: 'pro' }] };

describe('segments: roles and rules', () => {
  let segment = '';

  it('admins and owners create segments; viewers and editors read but cannot write', async () => {
    for (const actor of ['viewer', 'editor', 'nonMember', 'anon'] as const) {
      const { error } = await untyped(team.client(actor))
        .from('segments')
        .insert({ name: `by ${actor}`, rules: pro });
      expect(error, actor).not.toBeNull();
    }
    const made = await untyped(team.client('admin'))
      .from('segments')
      .insert({ name: 'Pro plan', rules: pro })
      .select('id, created_by')
      .single();
    expect(made.error).toBeNull();
    segment = (made.data as { id: string; created_by: string }).id;
    expect((made.data as { created_by: string }).created_by).toBe(team.users.admin.id);
    for (const actor of ['viewer', 'editor'] as const) {
      const { data } = await untyped(team.client(actor)).from('segments').select('name');
      expect(data, actor).toEqual([{ name: 'Pro plan' }]);
      const upd = await untyped(team.client(actor))
        .from('segments')
        .update({ name: 'x' })
        .eq('id', segment)
        .select();
      expect(upd.data ?? [], actor).toEqual([]);
    }
    for (const actor of ['anon', 'nonMember'] as const) {
      const { data } = await untyped(team.client(actor)).from('segments').select('name');
      expect(data ?? [], actor).toEqual([]);
    }
    const owner = await untyped(team.client('owner'))
      .from('segments')
      .update({ name: 'Pro plan (paying)' })
      .eq('id', segment)
      .select('name');
    expect(owner.data).toEqual([{ name: 'Pro plan (paying)' }]);
  });

  it('refuses rules the compiler refuses, a segment inside a segment, and a taken name', async () => {
    const bad = await untyped(team.client('admin'))
      .from('segments')
      .insert({
        name: 'Bad',
        rules: { match: 'all', rules: [{ field: 'nope', op: 'eq', value: 1 }] },
      });
    expect(bad.status).toBe(422);
    expect(bad.error?.message).toBe('postbox:invalid_input: rules.0.field: unknown field "nope"');
    const nested = await untyped(team.client('admin'))
      .from('segments')
      .insert({
        name: 'Nested',
        rules: { match: 'all', rules: [{ field: 'segment', op: 'in', value: segment }] },
      });
    expect(nested.error?.message).toBe(
      'postbox:invalid_input: rules: a segment cannot use another segment',
    );
    const taken = await untyped(team.client('admin'))
      .from('segments')
      .insert({ name: 'PRO PLAN (PAYING)', rules: pro });
    expect(taken.status).toBe(409);
    expect(taken.error?.message).toBe('postbox:conflict: Another segment already has that name.');
  });

  it('previews a count and the newest matches, under the caller’s RLS', async () => {
    const rules = {
      match: 'all',
      rules: [
        { field: 'segment', op: 'in', value: segment },
        { field: 'email', op: 'ends_with', value: '@aud.test' },
      ],
    };
    const viewer = await untyped(team.client('viewer')).rpc('preview_subscribers_matching', {
      p_rules: rules,
      p_limit: 2,
    });
    expect(viewer.error).toBeNull();
    const answer = viewer.data as { count: number; sample: Array<{ email: string }> };
    expect(answer.count).toBe(3);
    expect(answer.sample).toHaveLength(2);
    // A stranger sees no segment (RLS) and no subscriber.
    const stranger = untyped(team.client('nonMember'));
    const refused = await stranger.rpc('preview_subscribers_matching', { p_rules: rules });
    expect(refused.error?.message).toBe('postbox:invalid_input: rules.0.value: no such segment');
    const plain = await stranger.rpc('preview_subscribers_matching', { p_rules: pro });
    expect(plain.data).toEqual({ count: 0, sample: [] });
  });

  it('a campaign to "list minus segment": the live count and the recipients fixed at send', async () => {
    const campaign = await untyped(team.client('editor'))
      .from('campaigns')
      .insert({ name: 'Minus pro', subject: 'Hello', body_md: 'Hi' })
      .select('id')
      .single();
    expect(campaign.error).toBeNull();
    const campaignId = (campaign.data as { id: string }).id;
    const lists = await untyped(team.client('editor'))
      .from('campaign_lists')
      .insert({ campaign_id: campaignId, list_id: list });
    expect(lists.error).toBeNull();
    const viewerPick = await untyped(team.client('viewer'))
      .from('campaign_segments')
      .insert({ campaign_id: campaignId, segment_id: segment, mode: 'exclude' });
    expect(viewerPick.error).not.toBeNull();
    const pick = await untyped(team.client('editor'))
      .from('campaign_segments')
      .insert({ campaign_id: campaignId, segment_id: segment, mode: 'exclude' });
    expect(pick.error).toBeNull();

    // Confirmed and enabled: 1-5; pro among them: 2, 4 → 1, 3, 5 remain.
    const count = await untyped(team.client('editor')).rpc('campaign_audience_count', {
      p_list_ids: [list],
      p_include: [],
      p_exclude: [segment],
    });
    expect(count.data).toBe(3);
    const included = await untyped(team.client('viewer')).rpc('campaign_audience_count', {
      p_list_ids: [list],
      p_include: [segment],
    });
    expect(included.data).toBe(2);

    // The used segment cannot be deleted while the campaign is unsent.
    const del = await untyped(team.client('admin')).from('segments').delete().eq('id', segment);
    expect(del.status).toBe(409);

    const started = await team.service.rpc(
      'start_campaign_send' as never,
      {
        p_campaign_id: campaignId,
        p_body_html: '<p>Hi</p>',
      } as never,
    );
    expect(started.error).toBeNull();
    expect(started.data).toBe(3);
    const queued = await sql<{ email: string }>(
      team.emu,
      `select s.email from public.deliveries d join public.subscribers s on s.id = d.subscriber_id
        where d.campaign_id = $1 order by s.email`,
      [campaignId],
    );
    expect(queued.map((r) => r.email)).toEqual([
      'aud-1@aud.test',
      'aud-3@aud.test',
      'aud-5@aud.test',
    ]);
  });

  it('a segment an automation’s condition step or goal names is not deleted from under it', async () => {
    const admin = untyped(team.client('admin'));
    const made = await admin
      .from('segments')
      .insert({ name: 'Bought', rules: pro })
      .select('id')
      .single();
    const bought = (made.data as { id: string }).id;
    const inBought = { match: 'all', rules: [{ field: 'segment', op: 'in', value: bought }] };
    const automation = await admin
      .from('automations')
      .insert({ name: 'Nudge', trigger_kind: 'manual', goal_rules: inBought })
      .select('id')
      .single();
    expect(automation.error).toBeNull();
    const automationId = (automation.data as { id: string }).id;

    const refused = await admin.from('segments').delete().eq('id', bought);
    expect(refused.status).toBe(409);
    expect(refused.error?.message).toBe(
      'postbox:conflict: The automation “Nudge” uses this segment. Change its step or goal first.',
    );

    // Without the goal, a condition step naming it keeps it too.
    await admin.from('automations').update({ goal_rules: null }).eq('id', automationId);
    const step = await admin
      .from('automation_steps')
      .insert({ automation_id: automationId, position: 1, kind: 'condition', rules: inBought })
      .select('id')
      .single();
    expect(step.error).toBeNull();
    expect((await admin.from('segments').delete().eq('id', bought)).status).toBe(409);

    await admin
      .from('automation_steps')
      .delete()
      .eq('id', (step.data as { id: string }).id);
    const gone = await admin.from('segments').delete().eq('id', bought).select('id');
    expect(gone.error).toBeNull();
    expect(gone.data).toHaveLength(1);
  });
});
