// The campaign editor's data layer against the real schema, PostgREST and RLS (emulator): the
// recipient count as members and non-members, drafts created and saved, lists chosen, and saves
// refused once a campaign is no longer a draft.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  clientFor,
  createSubscriber,
  signedInClient,
  sql,
  startFunctionsEmulator,
} from '../../tests/functions/kit';
import type { Database } from '../database.types';
import type { Role } from '../roles';
import { loadCampaign, recipientCount, saveCampaign, saveCampaignLists } from './campaign-editor';
import { formFromCampaign } from './campaign-editor-form';
import { createDraft } from './campaigns';

type Client = SupabaseClient<Database>;
let emu: RunningEmulator;
const as: Partial<Record<Role | 'stranger' | 'anon', Client>> = {};
const tag = randomUUID().slice(0, 8);
const lists: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  for (const role of ['viewer', 'editor', 'stranger'] as const)
    as[role] = (await signedInClient(emu, role === 'stranger' ? null : role)) as unknown as Client;
  as.anon = clientFor(emu, 'publishable') as unknown as Client;
  for (const key of ['a', 'b', 'c'] as const) {
    const [row] = await sql<{ id: string }>(
      emu,
      `insert into public.lists (slug, name, visibility) values ($1, $2, $3) returning id`,
      [`rc-${key}-${tag}`, `Count ${key}`, key === 'c' ? 'private' : 'public'],
    );
    lists[key] = row!.id;
  }
  const a = `rc-a-${tag}`;
  const b = `rc-b-${tag}`;
  const c = `rc-c-${tag}`;
  await createSubscriber(emu, { [a]: 'confirmed' }, { tag: 'only-a' });
  await createSubscriber(emu, { [a]: 'confirmed', [b]: 'confirmed' }, { tag: 'both' });
  await createSubscriber(emu, { [b]: 'confirmed' }, { tag: 'only-b' });
  await createSubscriber(emu, { [a]: 'pending', [b]: 'unsubscribed' }, { tag: 'not-yet' });
  await createSubscriber(emu, { [a]: 'confirmed' }, { tag: 'blocked', status: 'blocklisted' });
  await createSubscriber(emu, { [c]: 'confirmed' }, { tag: 'private' });
});

afterAll(async () => {
  await emu?.stop();
});

describe('campaign_recipient_count', () => {
  it('counts enabled, confirmed subscribers of the chosen lists once each', async () => {
    const count = async (keys: ('a' | 'b' | 'c')[]) => {
      const result = await recipientCount(
        as.viewer!,
        keys.map((k) => lists[k]),
      );
      expect(result.error).toBeNull();
      return result.data;
    };
    // a: only-a and both (pending, unsubscribed and blocklisted left out); b: both and only-b.
    expect(await count(['a'])).toBe(2);
    expect(await count(['b'])).toBe(2);
    // "both" is on the two lists and counts once.
    expect(await count(['a', 'b'])).toBe(3);
    expect(await count(['a', 'b', 'c'])).toBe(4);
    expect(await count(['c'])).toBe(1);
    expect(await count([])).toBe(0);
  });

  it('answers 0 to a signed-in non-member and refuses anon', async () => {
    const stranger = await as.stranger!.rpc('campaign_recipient_count', {
      p_list_ids: [lists.a, lists.b],
    });
    expect(stranger.error).toBeNull();
    expect(stranger.data).toBe(0);
    const anon = await as.anon!.rpc('campaign_recipient_count', { p_list_ids: [lists.a] });
    expect(anon.error).not.toBeNull();
    expect(anon.data).toBeNull();
  });

  it('follows a subscription that changes', async () => {
    const late = await createSubscriber(emu, { [`rc-b-${tag}`]: 'pending' }, { tag: 'late' });
    expect((await recipientCount(as.viewer!, [lists.b])).data).toBe(2);
    await sql(
      emu,
      `update public.subscriptions set status = 'confirmed' where subscriber_id = $1`,
      [late.id],
    );
    expect((await recipientCount(as.viewer!, [lists.b])).data).toBe(3);
  });
});

describe('drafts', () => {
  it('an editor creates, saves and chooses lists; a viewer cannot', async () => {
    expect((await createDraft(as.viewer!)).ok).toBe(false);
    const created = await createDraft(as.editor!);
    if (!created.ok) throw new Error(created.message);
    const loaded = await loadCampaign(as.editor!, created.id);
    expect(loaded.data!.campaign.status).toBe('draft');
    const form = {
      ...formFromCampaign(loaded.data!.campaign),
      subject: `Hi ${tag}`,
      archive: true,
    };
    const saved = await saveCampaign(as.editor!, created.id, form);
    if (!saved.ok) throw new Error(saved.message);
    expect(saved.campaign.slug).toBe(`hi-${tag}`);
    expect((await saveCampaignLists(as.editor!, created.id, [lists.a, lists.b], [])).ok).toBe(true);
    expect(
      (await saveCampaignLists(as.editor!, created.id, [lists.b, lists.c], [lists.a, lists.b])).ok,
    ).toBe(true);
    expect((await loadCampaign(as.viewer!, created.id)).data!.listIds.sort()).toEqual(
      [lists.b, lists.c].sort(),
    );
    // A viewer's save changes nothing and says so.
    const refused = await saveCampaign(as.viewer!, created.id, { ...form, subject: 'Viewer' });
    expect(refused.ok).toBe(false);
    expect((await loadCampaign(as.editor!, created.id)).data!.campaign.subject).toBe(`Hi ${tag}`);
  });

  it('a second campaign with the same slug is refused at the slug field', async () => {
    const first = await createDraft(as.editor!);
    const second = await createDraft(as.editor!);
    if (!first.ok || !second.ok) throw new Error('createDraft failed');
    const base = formFromCampaign((await loadCampaign(as.editor!, first.id)).data!.campaign);
    expect((await saveCampaign(as.editor!, first.id, { ...base, slug: `dup-${tag}` })).ok).toBe(
      true,
    );
    const clash = await saveCampaign(as.editor!, second.id, { ...base, slug: `dup-${tag}` });
    expect(clash).toMatchObject({ ok: false, field: 'slug' });
  });

  it('refuses to save a campaign that is no longer a draft', async () => {
    const created = await createDraft(as.editor!);
    if (!created.ok) throw new Error(created.message);
    await sql(emu, `update public.campaigns set status = 'cancelled' where id = $1`, [created.id]);
    const base = formFromCampaign((await loadCampaign(as.editor!, created.id)).data!.campaign);
    const result = await saveCampaign(as.editor!, created.id, { ...base, subject: 'Late edit' });
    expect(result).toMatchObject({ ok: false, field: null });
    expect((await saveCampaignLists(as.editor!, created.id, [lists.a], [])).ok).toBe(false);
  });

  it('a campaign that does not exist loads as null', async () => {
    const result = await loadCampaign(as.viewer!, randomUUID());
    expect(result).toEqual({ data: null, error: null });
  });
});
