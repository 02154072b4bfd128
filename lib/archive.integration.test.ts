// archive_issues() and archive_issue() against the emulator for every actor: only archived, sent
// campaigns, only the reader's columns, keyset pages both ways, and the slug a send fills in.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../emulator/index';
import { ACTORS, createTeam, startIsolatedEmulator, type Team } from '../tests/rls/team-kit';
import { archiveArgs, archivePage, archivePosition, formatCursor } from './archive';
import { renderCampaignPreviewHtml } from './campaign-preview';

let emu: RunningEmulator;
let team: Team;
/** The seed's published sample issue (supabase/seed.sql), as the seed left it. */
let seeded: Record<string, unknown> | null;
const tag = randomUUID().slice(0, 8);

/** A campaign moved as the functions move it: draft → sending → sent (or left a draft). */
async function campaign(
  subject: string,
  options: {
    archive?: boolean;
    status?: 'draft' | 'sent' | 'cancelled';
    slug?: string;
    finishedAt?: string;
  } = {},
): Promise<{ id: string; slug: string | null }> {
  const service = team.service;
  const inserted = await service
    .from('campaigns')
    .insert({
      name: subject,
      subject,
      preheader: `About ${subject}`,
      body_md: `# ${subject}\n\nSecret draft notes`,
      body_html: `<h1>${subject}</h1>`,
      archive: options.archive ?? true,
      slug: options.slug ?? null,
    })
    .select('id')
    .single();
  if (inserted.error) throw new Error(inserted.error.message);
  const id = inserted.data.id;
  const steps = { draft: [], sent: ['sending', 'sent'], cancelled: ['cancelled'] }[
    options.status ?? 'sent'
  ];
  for (const status of steps) {
    const { error } = await service.from('campaigns').update({ status }).eq('id', id);
    if (error) throw new Error(`${status}: ${error.message}`);
  }
  if (options.finishedAt) {
    // Distinct, known times (counters and timestamps may move after the send; content may not).
    const { error } = await service
      .from('campaigns')
      .update({ finished_at: options.finishedAt })
      .eq('id', id);
    if (error) throw new Error(`finished_at: ${error.message}`);
  }
  const row = await service.from('campaigns').select('slug').eq('id', id).single();
  return { id, slug: row.data?.slug ?? null };
}

let published: { id: string; slug: string | null }[] = [];
let hidden: { id: string; slug: string | null }[] = [];

beforeAll(async () => {
  emu = await startIsolatedEmulator();
  team = await createTeam(emu);
  const sample = await team.service
    .from('campaigns')
    .select('id, status, archive, slug, body_md, body_html, finished_at')
    .eq('slug', 'welcome')
    .maybeSingle();
  seeded = sample.data;
  // This file's archive is exactly the issues it publishes: the sample issue leaves it.
  const { error } = await team.service
    .from('campaigns')
    .update({ archive: false })
    .eq('archive', true);
  if (error) throw new Error(error.message);
  published = [];
  for (let i = 0; i < 5; i++) {
    const finishedAt = `2026-01-0${i + 1}T10:00:00.123456+00:00`;
    published.push(await campaign(`Issue ${i} ${tag}`, { finishedAt }));
  }
  hidden = [
    await campaign(`Draft ${tag}`, { status: 'draft', slug: `draft-${tag}` }),
    await campaign(`Private ${tag}`, { archive: false, slug: `private-${tag}` }),
    await campaign(`Cancelled ${tag}`, { status: 'cancelled', slug: `cancelled-${tag}` }),
  ];
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

describe('archive_issues()', () => {
  it.each(ACTORS)(
    'gives %s the archived sent issues, newest first, reader columns only',
    async (actor) => {
      const { data, error } = await team.client(actor).rpc('archive_issues', { p_limit: 50 });
      expect(error).toBeNull();
      expect(data!.map((r) => r.id)).toEqual(published.map((p) => p.id).reverse());
      expect(Object.keys(data![0]!).sort()).toEqual(
        ['finished_at', 'id', 'preheader', 'slug', 'subject'].sort(),
      );
    },
  );

  it('walks 2 a page to the oldest issue and back again', async () => {
    const anon = team.client('anon');
    const newestFirst = published.map((p) => p.id).reverse();
    const seen: string[][] = [];
    let position = archivePosition(null, null);
    for (;;) {
      const { data, error } = await anon.rpc('archive_issues', archiveArgs(position, 2));
      expect(error).toBeNull();
      const page = archivePage(position, data!, 2);
      seen.push(page.issues.map((i) => i.id));
      if (!page.older) break;
      position = archivePosition(page.older, null);
    }
    expect(seen).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);

    const back: string[][] = [];
    for (;;) {
      const { data } = await anon.rpc('archive_issues', archiveArgs(position, 2));
      const page = archivePage(position, data!, 2);
      back.push(page.issues.map((i) => i.id));
      if (!page.newer) break;
      position = archivePosition(null, page.newer);
    }
    expect(back).toEqual([newestFirst.slice(4), newestFirst.slice(2, 4), newestFirst.slice(0, 2)]);
  });

  it('keeps issues that finished in the same instant apart by id', async () => {
    const { data } = await team.client('anon').rpc('archive_issues', { p_limit: 50 });
    const [first] = data!;
    const cursor = archivePosition(formatCursor({ at: first!.finished_at, id: first!.id }), null);
    const older = await team.client('anon').rpc('archive_issues', archiveArgs(cursor, 50));
    expect(older.data!.map((r) => r.id)).toEqual(data!.slice(1).map((r) => r.id));
  });
});

describe('the seed', () => {
  it('publishes one sample issue, rendered as a send renders it and sent to nobody', async () => {
    expect(seeded).toMatchObject({ status: 'sent', archive: true, slug: 'welcome' });
    expect(seeded!.body_html).toBe(renderCampaignPreviewHtml(String(seeded!.body_md)));
    expect(Date.parse(String(seeded!.finished_at))).toBe(Date.parse('2026-11-20T09:00:00Z'));
    for (const table of ['campaign_lists', 'deliveries'] as const) {
      const { count } = await team.service
        .from(table)
        .select('*', { count: 'exact', head: true })
        .eq('campaign_id', String(seeded!.id));
      expect(count, table).toBe(0);
    }
  });
});

describe('archive_issue()', () => {
  it.each(ACTORS)('gives %s one archived issue with its HTML, and nothing else', async (actor) => {
    const db = team.client(actor);
    const target = published[2]!;
    const { data, error } = await db.rpc('archive_issue', { p_slug: target.slug! }).maybeSingle();
    expect(error).toBeNull();
    expect(data).toEqual({
      id: target.id,
      slug: target.slug,
      subject: `Issue 2 ${tag}`,
      preheader: `About Issue 2 ${tag}`,
      body_html: `<h1>Issue 2 ${tag}</h1>`,
      finished_at: expect.any(String),
    });
    for (const slug of [...hidden.map((h) => h.slug!), `missing-${tag}`]) {
      const missing = await db.rpc('archive_issue', { p_slug: slug }).maybeSingle();
      expect(missing.error).toBeNull();
      expect(missing.data).toBeNull();
    }
  });

  it('the table stays closed to anon and shows a signed-in stranger no campaign', async () => {
    const anon = await team.client('anon').from('campaigns').select('id');
    expect(anon.error?.code).toBe('42501');
    const stranger = await team.client('nonMember').from('campaigns').select('id, body_md');
    expect(stranger.error).toBeNull();
    expect(stranger.data).toEqual([]);
  });
});

describe('archive slugs', () => {
  it('a send without a slug takes the subject, with the id when that is taken', async () => {
    const subject = `Hello, World! ${tag}`;
    const first = await campaign(subject);
    const second = await campaign(subject);
    expect(first.slug).toBe(`hello-world-${tag}`);
    expect(second.slug).toBe(`hello-world-${tag}-${second.id.replaceAll('-', '').slice(0, 8)}`);
    expect((await campaign('!!!', { slug: `chosen-${tag}` })).slug).toBe(`chosen-${tag}`);
    expect((await campaign(`Not archived ${tag}`, { archive: false })).slug).toBeNull();
    expect((await campaign(`Draft two ${tag}`, { status: 'draft' })).slug).toBeNull();
  });
});
