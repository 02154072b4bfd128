// Campaign lifecycle with real tokens (issue 23): the first save creates a draft; duplicate any
// campaign into a draft (editors and up); unschedule back to draft and reschedule (admins);
// editing a paused campaign (admins; subject, preheader, body and name only), checked again on
// resume; templates (viewers read, editors and up write).
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import type { Database } from '../../lib/database.types';
import {
  createCampaign,
  duplicateCampaign,
  saveCampaign,
  saveCampaignLists,
} from '../../lib/admin/campaign-editor';
import { formFromCampaign, type CampaignRow } from '../../lib/admin/campaign-editor-form';
import {
  createTemplate,
  deleteTemplate,
  formFromTemplate,
  listTemplates,
  renameTemplate,
} from '../../lib/admin/templates';
import { sql } from '../functions/kit';
import {
  campaignRow,
  listWithSubscribers,
  member,
  sendCampaign,
  startCampaignEmulator,
  type Member,
} from './kit';

type Client = SupabaseClient<Database>;
type Who = 'viewer' | 'editor' | 'admin' | 'stranger';

let emu: RunningEmulator;
let team: Record<Who, Member>;
let as: Record<Who | 'anon', Client>;

function clientOf(token: string | null): Client {
  return createClient<Database>(emu.url, emu.keys.publishable, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
}

async function listId(slug: string): Promise<string> {
  const [row] = await sql<{ id: string }>(emu, `select id from public.lists where slug = $1`, [
    slug,
  ]);
  return row!.id;
}

/** A draft made by an editor's first save, with content and one list. */
async function draftWith(listIds: string[], body = 'Hello {{ subscriber.first_name }}') {
  const form = { ...formFromTemplate(null), name: 'Spring', subject: 'Spring news', bodyMd: body };
  const made = await createCampaign(as.editor, { ...form, preheader: 'In short' }, listIds);
  if (!made.ok) throw new Error(made.message);
  return made.campaign;
}

/** Moves a campaign to `paused` as a send would, with one delivery still queued. */
async function pausedCampaign(slug: string): Promise<CampaignRow> {
  const draft = await draftWith([await listId(slug)]);
  await sql(
    emu,
    `with c as (update public.campaigns set status = 'sending' where id = $1 returning id)
     insert into public.deliveries (campaign_id, subscriber_id)
     select c.id, s.subscriber_id from c, public.subscriptions s
       join public.lists l on l.id = s.list_id where l.slug = $2`,
    [draft.id, slug],
  );
  await sql(emu, `update public.campaigns set status = 'paused' where id = $1`, [draft.id]);
  return { ...draft, status: 'paused' };
}

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  team = {
    viewer: await member(emu, 'viewer'),
    editor: await member(emu, 'editor'),
    admin: await member(emu, 'admin'),
    stranger: await member(emu, null),
  };
  as = {
    viewer: clientOf(team.viewer.token),
    editor: clientOf(team.editor.token),
    admin: clientOf(team.admin.token),
    stranger: clientOf(team.stranger.token),
    anon: clientOf(null),
  };
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

describe('the first save creates the draft', () => {
  it('makes one draft with the typed content and lists; a viewer makes none', async () => {
    const slug = await listWithSubscribers(emu, 'first', 1);
    const before = await sql<{ n: number }>(emu, `select count(*)::int as n from public.campaigns`);
    const refused = await createCampaign(as.viewer, formFromTemplate(null), []);
    expect(refused.ok).toBe(false);
    const draft = await draftWith([await listId(slug)]);
    expect(draft).toMatchObject({ status: 'draft', name: 'Spring', subject: 'Spring news' });
    const after = await sql<{ n: number }>(emu, `select count(*)::int as n from public.campaigns`);
    expect(after[0]!.n).toBe(before[0]!.n + 1);
    const lists = await sql(
      emu,
      `select list_id from public.campaign_lists where campaign_id = $1`,
      [draft.id],
    );
    expect(lists).toHaveLength(1);
  });
});

describe('duplicate_campaign', () => {
  it('copies a sent campaign into a draft with "(copy)", its lists, no schedule and no stats', async () => {
    const slug = await listWithSubscribers(emu, 'dup', 2);
    const source = await draftWith([await listId(slug)], '# Issue 1\n\nHi there');
    await sql(
      emu,
      `update public.campaigns set status = 'sending', recipients = 2, sent = 2 where id = $1;`,
      [source.id],
    );
    await sql(emu, `update public.campaigns set status = 'sent' where id = $1`, [source.id]);
    const copy = await duplicateCampaign(as.editor, source.id);
    expect(copy.ok).toBe(true);
    const row = await campaignRow(emu, copy.ok ? copy.id : '');
    expect(row).toMatchObject({
      status: 'draft',
      name: 'Spring (copy)',
      subject: 'Spring news (copy)',
      preheader: 'In short',
      body_md: '# Issue 1\n\nHi there',
      scheduled_at: null,
      started_at: null,
      finished_at: null,
      slug: null,
      recipients: 0,
      sent: 0,
      failed: 0,
      created_by: team.editor.id,
    });
    const lists = await sql<{ list_id: string }>(
      emu,
      `select list_id from public.campaign_lists where campaign_id = $1`,
      [row.id],
    );
    expect(lists.map((l) => l.list_id)).toEqual([await listId(slug)]);
  });

  it('copies the segments the campaign includes and leaves out, as an editor', async () => {
    const source = await draftWith([]);
    const segments = await sql<{ id: string; name: string }>(
      emu,
      `insert into public.segments (name, rules)
       values ('Dup keep ' || gen_random_uuid(), '{"match":"all","rules":[]}'),
              ('Dup skip ' || gen_random_uuid(), '{"match":"all","rules":[]}')
       returning id, name`,
    );
    const [keep, skip] = [
      segments.find((s) => s.name.startsWith('Dup keep'))!,
      segments.find((s) => s.name.startsWith('Dup skip'))!,
    ];
    await sql(
      emu,
      `insert into public.campaign_segments (campaign_id, segment_id, mode)
       values ($1, $2, 'include'), ($1, $3, 'exclude')`,
      [source.id, keep.id, skip.id],
    );
    const copy = await duplicateCampaign(as.editor, source.id);
    expect(copy.ok).toBe(true);
    const copied = await sql<{ segment_id: string; mode: string }>(
      emu,
      `select segment_id, mode from public.campaign_segments where campaign_id = $1 order by mode desc`,
      [copy.ok ? copy.id : ''],
    );
    expect(copied).toEqual([
      { segment_id: keep.id, mode: 'include' },
      { segment_id: skip.id, mode: 'exclude' },
    ]);
  });

  it('keeps a long name within 200 characters', async () => {
    const long = await draftWith([]);
    await as.editor
      .from('campaigns')
      .update({ name: 'n'.repeat(200) })
      .eq('id', long.id);
    const copy = await duplicateCampaign(as.admin, long.id);
    const row = await campaignRow(emu, copy.ok ? copy.id : '');
    expect(String(row.name)).toHaveLength(200);
    expect(String(row.name).endsWith(' (copy)')).toBe(true);
  });

  it('refuses viewers, strangers and anon, and makes nothing for them', async () => {
    const source = await draftWith([]);
    const count = async () =>
      (await sql<{ n: number }>(emu, `select count(*)::int as n from public.campaigns`))[0]!.n;
    const before = await count();
    const viewer = await duplicateCampaign(as.viewer, source.id);
    expect(viewer).toEqual({ ok: false, message: 'You do not have permission to do that.' });
    // A stranger cannot read the campaign: it does not exist for them.
    const stranger = await duplicateCampaign(as.stranger, source.id);
    expect(stranger).toEqual({ ok: false, message: 'That campaign does not exist.' });
    const anon = await as.anon.rpc('duplicate_campaign', { p_campaign_id: source.id });
    expect(anon.error).not.toBeNull();
    expect(await count()).toBe(before);
  });
});

describe('unschedule', () => {
  it('takes a scheduled campaign back to draft (admins only); it can be edited and rescheduled', async () => {
    const slug = await listWithSubscribers(emu, 'unsch', 1);
    const draft = await draftWith([await listId(slug)]);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await sendCampaign(emu, team.admin, {
      campaign_id: draft.id,
      action: 'schedule',
      at,
    });
    expect(scheduled.status).toBe(200);
    // Scheduled: not editable.
    const locked = await saveCampaign(as.editor, draft.id, {
      ...formFromCampaign(draft),
      subject: 'Too late',
    });
    expect(locked.ok).toBe(false);
    const editor = await sendCampaign(emu, team.editor, {
      campaign_id: draft.id,
      action: 'unschedule',
    });
    expect([editor.status, editor.body?.error?.code]).toEqual([403, 'forbidden']);
    const back = await sendCampaign(emu, team.admin, {
      campaign_id: draft.id,
      action: 'unschedule',
    });
    expect(back.status).toBe(200);
    expect(back.body.campaign).toMatchObject({ status: 'draft', scheduled_at: null });
    const again = await sendCampaign(emu, team.admin, {
      campaign_id: draft.id,
      action: 'unschedule',
    });
    expect([again.status, again.body?.error?.code]).toEqual([409, 'conflict']);
    const edited = await saveCampaign(as.editor, draft.id, {
      ...formFromCampaign(draft),
      subject: 'Spring news, revised',
    });
    expect(edited.ok).toBe(true);
    const rescheduled = await sendCampaign(emu, team.admin, {
      campaign_id: draft.id,
      action: 'schedule',
      at,
    });
    expect(rescheduled.body.campaign).toMatchObject({
      status: 'scheduled',
      subject: 'Spring news, revised',
    });
  });
});

describe('a paused campaign', () => {
  it('lets admins change the subject, preheader, body and name, and nothing else', async () => {
    const slug = await listWithSubscribers(emu, 'paused', 1);
    const paused = await pausedCampaign(slug);
    const form = { ...formFromCampaign(paused), subject: 'Corrected subject', bodyMd: 'Fixed' };
    const editor = await saveCampaign(as.editor, paused.id, form, 'paused');
    expect(editor.ok).toBe(false);
    expect((await campaignRow(emu, paused.id)).subject).toBe('Spring news');
    const admin = await saveCampaign(as.admin, paused.id, form, 'paused');
    expect(admin.ok).toBe(true);
    expect(await campaignRow(emu, paused.id)).toMatchObject({
      status: 'paused',
      subject: 'Corrected subject',
      body_md: 'Fixed',
    });
    // The sender, the archive choice and the lists stay as they were sent.
    const sender = await as.admin
      .from('campaigns')
      .update({ from_name: 'Someone else' })
      .eq('id', paused.id)
      .select('id');
    expect(sender.error?.message).toMatch(/only the name, subject, preheader and body/);
    const archive = await as.admin
      .from('campaigns')
      .update({ archive: true })
      .eq('id', paused.id)
      .select('id');
    expect(archive.error).not.toBeNull();
    const lists = await saveCampaignLists(as.admin, paused.id, [], [await listId(slug)]);
    expect(lists.ok).toBe(true); // RLS hides the rows: nothing is deleted.
    const kept = await sql(emu, `select 1 from public.campaign_lists where campaign_id = $1`, [
      paused.id,
    ]);
    expect(kept).toHaveLength(1);
    // A sent campaign stays closed to everyone.
    await sql(emu, `update public.campaigns set status = 'cancelled' where id = $1`, [paused.id]);
    const closed = await saveCampaign(as.admin, paused.id, form, 'paused');
    expect(closed.ok).toBe(false);
  });

  it('is checked again on resume: a merge-tag error keeps it paused, a fixed one resumes', async () => {
    const slug = await listWithSubscribers(emu, 'resume', 1);
    const paused = await pausedCampaign(slug);
    const broken = { ...formFromCampaign(paused), bodyMd: 'Hi {{ subscriber.name' };
    expect((await saveCampaign(as.admin, paused.id, broken, 'paused')).ok).toBe(true);
    const refused = await sendCampaign(emu, team.admin, {
      campaign_id: paused.id,
      action: 'resume',
    });
    expect([refused.status, refused.body?.error?.code]).toEqual([422, 'template_error']);
    expect((await campaignRow(emu, paused.id)).status).toBe('paused');
    const fixed = { ...broken, bodyMd: 'Hi {{ subscriber.name | default: "there" }}, revised.' };
    expect((await saveCampaign(as.admin, paused.id, fixed, 'paused')).ok).toBe(true);
    const resumed = await sendCampaign(emu, team.admin, {
      campaign_id: paused.id,
      action: 'resume',
    });
    expect(resumed.status).toBe(200);
    const row = await campaignRow(emu, paused.id);
    expect(['sending', 'sent']).toContain(row.status);
    // The archive's copy is the edited body, rendered for nobody.
    expect(String(row.body_html)).toContain('Hi there, revised.');
  });
});

describe('campaign_templates', () => {
  it('viewers read; editors and admins create, rename and delete; others get nothing', async () => {
    const content = {
      name: 'Monthly',
      description: 'Our monthly issue',
      subject: 'News from {{ site.name }}',
      preheader: '',
      bodyMd: 'Hi {{ subscriber.first_name | default: "friend" }}',
    };
    expect((await createTemplate(as.viewer, content)).ok).toBe(false);
    expect((await createTemplate(as.stranger, content)).ok).toBe(false);
    const made = await createTemplate(as.editor, content);
    if (!made.ok) throw new Error(made.message);
    const id = made.template.id;
    const seen = await listTemplates(as.viewer);
    expect(seen.data?.map((t) => t.id)).toContain(id);
    for (const who of ['stranger', 'anon'] as const) {
      const hidden = await listTemplates(as[who]);
      expect([who, hidden.data?.some((t) => t.id === id) ?? false]).toEqual([who, false]);
    }
    expect((await renameTemplate(as.viewer, id, 'Hijacked')).ok).toBe(false);
    expect((await deleteTemplate(as.viewer, id)).ok).toBe(false);
    const renamed = await renameTemplate(as.admin, id, ' Monthly issue ');
    expect(renamed.ok && renamed.template.name).toBe('Monthly issue');
    expect((await renameTemplate(as.editor, id, '   ')).ok).toBe(false);
    // A campaign started from it is a copy: the template stays when the campaign changes.
    const started = await createCampaign(
      as.editor,
      formFromTemplate(renamed.ok ? renamed.template : null),
      [],
    );
    expect(started.ok && started.campaign).toMatchObject({
      name: 'Monthly issue',
      subject: 'News from {{ site.name }}',
    });
    expect((await deleteTemplate(as.editor, id)).ok).toBe(true);
    expect((await listTemplates(as.viewer)).data?.some((t) => t.id === id)).toBe(false);
  });
});
