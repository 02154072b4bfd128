// The automations list's figures (issue 24) read with real tokens through supabase-js, as the page
// reads them (listAutomations: the automations and the automation_report view, two requests
// whatever the number of automations): per automation its enrolments and what its emails did —
// sent, failed, bounced, unsubscribed, opens and clicks — each automation its own numbers; the same
// for viewers, editors and admins (RLS: members read), nothing for strangers and anonymous callers.
// Emails are really sent by the engine; the feedback is written as the feedback functions write it.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import type { Database } from '../../lib/database.types';
import { listAutomations } from '../../lib/admin/automations';
import { listFigures } from '../../lib/admin/automation-report';
import { clientFor, createSubscriber, signedInClient, sql, waitForMail } from '../functions/kit';
import { startCampaignEmulator } from '../campaigns/kit';
import { drainAutomations, newAutomation, newList } from './kit';

let emu: RunningEmulator;
const as: Record<string, SupabaseClient<Database>> = {};
/** Requests each client made (its `fetch`), to see the list is not read one automation at a time. */
const requests: Record<string, number> = {};

/** A client holding `base`'s session whose requests are counted under `name`. */
async function counted(name: string, base: SupabaseClient): Promise<SupabaseClient<Database>> {
  requests[name] = 0;
  const client = createClient<Database>(emu.url, emu.keys.publishable, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: {
      fetch: (input, init) => {
        requests[name]! += 1;
        return fetch(input, init);
      },
    },
  });
  const { data } = await base.auth.getSession();
  if (data.session) await client.auth.setSession(data.session);
  return client;
}

let busy: string;
let quiet: string;
let steps: string[];
let readers: { id: string; email: string }[];

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  for (const role of ['viewer', 'editor', 'admin'] as const)
    as[role] = await counted(role, await signedInClient(emu, role));
  as.stranger = await counted('stranger', await signedInClient(emu, null));
  as.anon = await counted('anon', clientFor(emu, 'publishable'));

  const list = await newList(emu, 'figures');
  busy = await newAutomation(emu, {
    name: 'Busy',
    trigger: { list: list.slug },
    steps: [
      { kind: 'email', subject: 'One', body_md: 'First.' },
      { kind: 'email', subject: 'Two', body_md: 'Second.' },
    ],
  });
  quiet = await newAutomation(emu, {
    name: 'Quiet',
    status: 'paused',
    trigger: { list: list.slug },
    steps: [{ kind: 'email', subject: 'Never', body_md: 'Paused before anyone joined.' }],
  });
  steps = (
    await sql<{ id: string }>(
      emu,
      `select id from public.automation_steps where automation_id = $1 order by position`,
      [busy],
    )
  ).map((s) => s.id);
  readers = [];
  for (let i = 0; i < 3; i++)
    readers.push(await createSubscriber(emu, { [list.slug]: 'confirmed' }, { tag: 'figures' }));
  await drainAutomations(emu);
  for (const r of readers) await waitForMail(emu, r.email, 2);

  // Feedback as record_email_events, record_automation_tracking_event and
  // unsubscribe_with_automation leave it: reader 0's second email failed, reader 1's bounced;
  // reader 0 opened the first email twice and clicked in it, reader 2 opened it and the second
  // (and a mail scanner's open, which is not counted); reader 2 unsubscribed from the second.
  const [one, two] = steps as [string, string];
  await sql(
    emu,
    `update public.automation_sends set status = 'failed', sent_at = null
      where step_id = $1 and subscriber_id = $2`,
    [two, readers[0]!.id],
  );
  await sql(
    emu,
    `update public.automation_sends set status = 'bounced' where step_id = $1 and subscriber_id = $2`,
    [one, readers[1]!.id],
  );
  const event = (who: number, step: string, type: string, data: object = {}) =>
    sql(
      emu,
      `insert into public.events (subscriber_id, automation_step_id, type, data)
       values ($1, $2, $3, $4::jsonb || jsonb_build_object('automation_id', $5::uuid))`,
      [readers[who]!.id, step, type, JSON.stringify(data), busy],
    );
  await event(0, one, 'opened', { machine: false });
  await event(0, one, 'opened', { machine: false });
  await event(0, one, 'clicked', { url: 'https://example.com/' });
  await event(2, one, 'opened', { machine: true });
  await event(2, one, 'opened', { machine: false });
  await event(2, two, 'opened', { machine: false });
  await event(2, two, 'unsubscribed', { list: 'figures' });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

describe('the list read as the page reads it', () => {
  it('gives viewers, editors and admins each automation its own figures, in two requests', async () => {
    for (const role of ['viewer', 'editor', 'admin']) {
      requests[role] = 0;
      const { data, error } = await listAutomations(as[role]!);
      expect(error, role).toBeNull();
      expect(requests[role], `${role}: requests for the whole list`).toBe(2);
      const byId = new Map((data ?? []).map((a) => [a.id, a]));
      expect(byId.get(busy)?.counts, role).toEqual({
        active: 0,
        completed: 3,
        exited: 0,
        // Six emails: one failed, one bounced (a bounced email was sent).
        sent: 5,
        failed: 1,
        bounced: 1,
        unsubscribed: 1,
        // Step one: readers 0 and 2 (the scanner's open left out); step two: reader 2.
        unique_opens: 3,
        opens: 4,
        unique_clicks: 1,
        clicks: 1,
      });
      expect(byId.get(quiet)?.status, role).toBe('paused');
      expect(byId.get(quiet)?.counts.sent, role).toBe(0);
    }
  });

  it('shows them as rates of the emails sent, and dashes for the paused one with none sent', async () => {
    const { data } = await listAutomations(as.viewer!);
    const figures = (id: string) =>
      listFigures(data!.find((a) => a.id === id)!.counts, { opens: true, clicks: false });
    const busyFigures = figures(busy);
    expect(
      Object.fromEntries(Object.entries(busyFigures).map(([k, f]) => [k, [f.text, f.detail]])),
    ).toEqual({
      sent: ['5', '1 failed'],
      opened: ['60%', '3'],
      clicked: ['20%', '1'],
      unsubscribed: ['20%', '1'],
      bounced: ['20%', '1'],
    });
    const quietFigures = figures(quiet);
    expect([quietFigures.opened.text, quietFigures.clicked.text]).toEqual(['—', '—']);
  });

  it('gives strangers and anonymous callers no automation and no figures', async () => {
    // A signed-in stranger reads empty tables (RLS); an anonymous caller may not read them at all.
    const stranger = await listAutomations(as.stranger!);
    expect(stranger).toMatchObject({ data: [], error: null });
    const report = await as.stranger!.from('automation_report').select('*');
    expect(report).toMatchObject({ data: [], error: null });
    const anon = await listAutomations(as.anon!);
    expect(anon.data).toBeNull();
    expect(anon.error).toMatchObject({ code: '42501' });
    const anonReport = await as.anon!.from('automation_report').select('*');
    expect(anonReport.data ?? []).toEqual([]);
  });
});
