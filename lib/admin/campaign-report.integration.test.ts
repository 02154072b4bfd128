// campaign_report() and the campaigns/report data layer against the real schema and PostgREST:
// deliveries and events written by the service role, read with real members' tokens under RLS.
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { listWithSubscribers, member, startCampaignEmulator } from '../../tests/campaigns/kit';
import { clientFor, sql } from '../../tests/functions/kit';
import type { Database } from '../database.types';
import { getCampaignReport, listDeliveries } from './campaign-report';
import { createDraft, deleteCampaign, listCampaigns } from './campaigns';

type Client = SupabaseClient<Database>;
let emu: RunningEmulator;
const as: Record<'viewer' | 'editor' | 'admin' | 'stranger', Client> = {} as never;
const tag = `rep-${randomUUID().slice(0, 6)}`;
let campaignId: string;
let subscriberIds: string[];

function withToken(token: string): Client {
  return createClient<Database>(emu.url, emu.keys.publishable, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

beforeAll(async () => {
  emu = await startCampaignEmulator();
  for (const role of ['viewer', 'editor', 'admin'] as const) {
    as[role] = withToken((await member(emu, role)).token);
  }
  as.stranger = withToken((await member(emu, null)).token);

  // Ten recipients of one sending campaign, written as the service role.
  const slug = await listWithSubscribers(emu, tag, 10);
  const service = clientFor(emu, 'service') as unknown as Client;
  const created = await service
    .from('campaigns')
    .insert({ name: 'Report test', subject: 'Numbers', archive: true })
    .select('id')
    .single();
  if (created.error) throw created.error;
  campaignId = created.data.id;
  const list = await service.from('lists').select('id').eq('slug', slug).single();
  await service.from('campaign_lists').insert({ campaign_id: campaignId, list_id: list.data!.id });
  const subs = await sql<{ id: string }>(
    emu,
    `select s.id from public.subscribers s where s.email like $1 order by s.id`,
    [`${tag}-%`],
  );
  subscriberIds = subs.map((s) => s.id);
  // 5 sent, 1 sent then bounced, 2 failed, 1 queued, 1 sending.
  const statuses = [
    'sent',
    'sent',
    'sent',
    'sent',
    'sent',
    'bounced',
    'failed',
    'failed',
    'queued',
    'sending',
  ];
  const deliveries = subscriberIds.map((id, i) => ({
    campaign_id: campaignId,
    subscriber_id: id,
    status: statuses[i]!,
    attempts: statuses[i] === 'failed' ? 3 : 1,
    last_error: statuses[i] === 'failed' ? '550 mailbox unavailable' : null,
    sent_at: ['sent', 'bounced'].includes(statuses[i]!) ? new Date().toISOString() : null,
  }));
  const inserted = await service.from('deliveries').insert(deliveries);
  if (inserted.error) throw inserted.error;
  const moved = await service
    .from('campaigns')
    .update({ status: 'sending', recipients: 10, deferred: 3 })
    .eq('id', campaignId);
  if (moved.error) throw moved.error;

  const [a, b, c, d] = subscriberIds as [string, string, string, string];
  const events: { subscriber_id: string; type: string; data: Record<string, boolean | string> }[] =
    [
      // Opens: a twice and b once by people, c once by a machine (privacy proxy).
      { subscriber_id: a, type: 'opened', data: { machine: false } },
      { subscriber_id: a, type: 'opened', data: { machine: false } },
      { subscriber_id: b, type: 'opened', data: {} },
      { subscriber_id: c, type: 'opened', data: { machine: true } },
      // Clicks: a twice, b once.
      { subscriber_id: a, type: 'clicked', data: { url: 'https://example.com/1' } },
      { subscriber_id: a, type: 'clicked', data: { url: 'https://example.com/2' } },
      { subscriber_id: b, type: 'clicked', data: { url: 'https://example.com/1' } },
      // d unsubscribed from two lists with one link (two events, one person) and complained.
      { subscriber_id: d, type: 'unsubscribed', data: {} },
      { subscriber_id: d, type: 'unsubscribed', data: {} },
      { subscriber_id: d, type: 'complained', data: {} },
      // A bounce event for the delivery already marked bounced (counted once) and one for c.
      { subscriber_id: subscriberIds[5]!, type: 'bounced', data: { kind: 'hard' } },
      { subscriber_id: c, type: 'bounced', data: { kind: 'soft' } },
    ];
  const ev = await service
    .from('events')
    .insert(events.map((e) => ({ ...e, campaign_id: campaignId })));
  if (ev.error) throw ev.error;
  // An open of another campaign's email must not count here.
  await service.from('events').insert({ subscriber_id: a, type: 'opened', data: {} });
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

describe('campaign_report', () => {
  it('gives a viewer every number of the campaign', async () => {
    const { data, error } = await getCampaignReport(as.viewer, campaignId);
    expect(error).toBeNull();
    expect(data).toMatchObject({
      campaign_id: campaignId,
      status: 'sending',
      recipients: 10,
      queued: 1,
      sending: 1,
      sent: 6,
      failed: 2,
      bounced: 2,
      deferred: 3,
      unsubscribed: 1,
      complained: 1,
      opens: 3,
      unique_opens: 2,
      machine_opens: 1,
      clicks: 3,
      unique_clicks: 2,
    });
    expect(data?.started_at).toBeTruthy();
    expect(data?.finished_at).toBeNull();
  });

  it('gives an account that is not on the team nothing, even for an archived campaign', async () => {
    const { data, error } = await as.stranger.rpc('campaign_report', { p_campaign_id: campaignId });
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });

  it('is not callable without signing in', async () => {
    const anon = clientFor(emu, 'publishable') as unknown as Client;
    const { data, error } = await anon.rpc('campaign_report', { p_campaign_id: campaignId });
    expect(data).toBeNull();
    expect(error?.code).toBe('42501');
  });

  it('answers no row for an unknown campaign', async () => {
    expect((await getCampaignReport(as.viewer, randomUUID())).data).toBeNull();
  });
});

describe('delivery log', () => {
  it('pages the deliveries by subscriber id with their email, and filters by status', async () => {
    const first = await listDeliveries(as.viewer, campaignId, null, null, 4);
    expect(first.data?.rows.map((r) => r.subscriber_id)).toEqual(subscriberIds.slice(0, 4));
    expect(first.data?.rows[0]?.email).toMatch(new RegExp(`^${tag}-\\d+@example.com$`));
    const second = await listDeliveries(as.viewer, campaignId, null, first.data!.next, 4);
    const third = await listDeliveries(as.viewer, campaignId, null, second.data!.next, 4);
    expect(second.data?.rows.map((r) => r.subscriber_id)).toEqual(subscriberIds.slice(4, 8));
    expect(third.data?.rows.map((r) => r.subscriber_id)).toEqual(subscriberIds.slice(8));
    expect(third.data?.next).toBeNull();

    const failed = await listDeliveries(as.viewer, campaignId, 'failed', null);
    expect(failed.data?.rows).toHaveLength(2);
    expect(failed.data?.rows[0]).toMatchObject({
      attempts: 3,
      last_error: '550 mailbox unavailable',
    });
  });

  it('shows a stranger no deliveries', async () => {
    const { data } = await listDeliveries(as.stranger, campaignId, null, null);
    expect(data?.rows).toEqual([]);
  });
});

describe('campaign list', () => {
  it('creates a draft as an editor, lists it under drafts newest first, and deletes it', async () => {
    const made = await createDraft(as.editor);
    expect(made.ok).toBe(true);
    const id = made.ok ? made.id : '';
    const drafts = await listCampaigns(as.viewer, 'draft');
    expect(drafts.data?.rows[0]).toMatchObject({ id, name: 'Untitled campaign', status: 'draft' });
    const active = await listCampaigns(as.viewer, 'active');
    expect(active.data?.rows.find((r) => r.id === campaignId)?.lists).toHaveLength(1);
    expect(active.data?.rows.some((r) => r.id === id)).toBe(false);

    expect((await createDraft(as.viewer)).ok).toBe(false);
    expect((await deleteCampaign(as.viewer, id)).ok).toBe(false);
    expect((await deleteCampaign(as.editor, id)).ok).toBe(true);
    // Nobody deletes a campaign that is sending, not even an admin.
    expect((await deleteCampaign(as.admin, campaignId)).ok).toBe(false);
  });

  it('pages with a keyset cursor', async () => {
    for (let i = 0; i < 3; i++) await createDraft(as.editor, `Paged ${i}`);
    const first = await listCampaigns(as.viewer, 'all', null, 2);
    expect(first.data?.rows).toHaveLength(2);
    const second = await listCampaigns(as.viewer, 'all', first.data!.next, 2);
    const ids = [...first.data!.rows, ...second.data!.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(first.data!.rows[0]!.created_at >= second.data!.rows[0]!.created_at).toBe(true);
  });
});
