// The automation report's feedback over HTTP (issue 24): with tracking on, an automation email
// carries a pixel and click links naming its step; opens, clicks, an unsubscribe through its link
// and a hard bounce of its Message-ID count for that step and sum per automation; members read the
// numbers with real tokens, others nothing; team:automations announces each change to members.
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { Inbox } from '../../emulator/realtime/test-support';
import {
  callFunction,
  clientFor,
  createSubscriber,
  signedInClient,
  signTestToken,
  sql,
  waitForMail,
  type CaughtMail,
} from '../functions/kit';
import { sourceHeaders, startCampaignEmulator } from '../campaigns/kit';
import { drainAutomations, newAutomation, newList } from './kit';

const SECRET = 'test-webhook-secret-0123456789';
const POST = 'https://example.com/guide?a=1&b=two';
const HUMAN =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko)';

let emu: RunningEmulator;
const as: Record<string, SupabaseClient> = {};

beforeAll(async () => {
  emu = await startCampaignEmulator({
    POSTBOX_SEND_RATE: 'unlimited',
    POSTBOX_WEBHOOK_SECRET: SECRET,
  });
  for (const role of ['viewer', 'admin'] as const) as[role] = await signedInClient(emu, role);
  as.stranger = await signedInClient(emu, null);
  as.anon = clientFor(emu, 'publishable');
}, 120_000);
afterAll(async () => {
  for (const c of Object.values(as)) await c.removeAllChannels();
  await emu?.stop();
});

async function setTracking(on: boolean): Promise<void> {
  await sql(emu, `update public.settings set track_opens = $1, track_clicks = $1`, [on]);
}

/** The pixel and the tracked links of a caught message's HTML. */
function trackUrls(mail: CaughtMail): { pixel: string[]; links: string[] } {
  const find = (attribute: string) =>
    [
      ...mail.html.matchAll(new RegExp(`${attribute}="([^"]*/functions/v1/track\\?[^"]*)"`, 'g')),
    ].map((m) => m[1]!.replace(/&amp;/g, '&'));
  return { pixel: find('src'), links: find('href') };
}

const fetchAs = (url: string, userAgent = HUMAN) =>
  fetch(url, { redirect: 'manual', headers: { 'User-Agent': userAgent } });

/** The token payload of a track or unsubscribe URL. */
function payloadOf(url: string, param: 't' | 'token'): Record<string, unknown> {
  const token = new URL(url).searchParams.get(param)!;
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
}

/** A two-email automation on a fresh list, started, with `n` confirmed readers who got both. */
async function sentAutomation(n: number) {
  const list = await newList(emu, 'report');
  const id = await newAutomation(emu, {
    trigger: { list: list.slug },
    steps: [
      { kind: 'email', subject: 'One', body_md: `Read [the guide](${POST}).` },
      { kind: 'email', subject: 'Two', body_md: `Again: [the guide](${POST}).` },
    ],
  });
  const steps = await sql<{ id: string }>(
    emu,
    `select id from public.automation_steps where automation_id = $1 order by position`,
    [id],
  );
  const readers = [];
  for (let i = 0; i < n; i++)
    readers.push(await createSubscriber(emu, { [list.slug]: 'confirmed' }, { tag: 'report' }));
  await drainAutomations(emu);
  const mails = [];
  for (const r of readers) mails.push(await waitForMail(emu, r.email, 2));
  return { id, steps: steps.map((s) => s.id), readers, mails };
}

type Numbers = Record<string, number>;
const FEEDBACK = [
  'sent',
  'failed',
  'bounced',
  'unsubscribed',
  'unique_opens',
  'opens',
  'unique_clicks',
  'clicks',
];
const pick = (row: Record<string, unknown>, keys: string[]): Numbers =>
  Object.fromEntries(keys.map((k) => [k, row[k] as number]));

describe('with tracking on', () => {
  let sent: Awaited<ReturnType<typeof sentAutomation>>;

  beforeAll(async () => {
    await setTracking(true);
    sent = await sentAutomation(4);
  }, 60_000);

  it('puts a pixel and click links naming the step into the HTML; the footer and text keep theirs', () => {
    const [one, two] = sent.mails[0]!;
    for (const [mail, step] of [
      [one!, sent.steps[0]],
      [two!, sent.steps[1]],
    ] as const) {
      const { pixel, links } = trackUrls(mail);
      expect(pixel).toHaveLength(1);
      expect(links).toHaveLength(1);
      expect(new URL(links[0]!).searchParams.get('u')).toBe(POST);
      expect(payloadOf(pixel[0]!, 't')).toMatchObject({ p: 'open', a: step });
      expect(payloadOf(pixel[0]!, 't')).not.toHaveProperty('c');
      expect(mail.html).toMatch(/href="http[^"]*\/unsubscribe\/\?token=/);
      expect(mail.text).toContain(`(${POST})`);
      expect(mail.text).not.toContain('/functions/v1/track');
    }
  });

  it('counts opens, clicks, an unsubscribe and a bounce for the step whose email caused them', async () => {
    const [a, b, c, d] = sent.mails;
    // Long after the send, so a person's open is a person's.
    await sql(
      emu,
      `update public.automation_sends set sent_at = now() - interval '1 hour' where automation_id = $1`,
      [sent.id],
    );
    // A opens the first email twice and clicks its link twice.
    await fetchAs(trackUrls(a![0]!).pixel[0]!);
    await fetchAs(trackUrls(a![0]!).pixel[0]!);
    for (let i = 0; i < 2; i++) {
      const click = await fetchAs(trackUrls(a![0]!).links[0]!);
      expect([click.status, click.headers.get('location')]).toEqual([302, POST]);
    }
    // B's first email is opened by Apple's prefetch (a machine), and B clicks in the second.
    await fetchAs(trackUrls(b![0]!).pixel[0]!, 'Mozilla/5.0');
    await fetchAs(trackUrls(b![1]!).links[0]!);
    // C unsubscribes in one click from the second email's List-Unsubscribe header.
    const oneClick = /<(http[^>]+)>/.exec(
      (await sourceHeaders(emu, c![1]!.id))['list-unsubscribe'] ?? '',
    )![1]!;
    expect(payloadOf(oneClick, 'token')).toMatchObject({ p: 'unsubscribe', a: sent.steps[1] });
    const post = await fetch(oneClick, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(post.status).toBe(200);
    // D's first email bounces hard (the provider names its Message-ID).
    const messageId = (await sourceHeaders(emu, d![0]!.id))['message-id']!;
    expect(messageId).toMatch(new RegExp(`^<auto\\.${sent.steps[0]}\\.`));
    const bounce = await callFunction(emu, 'email-events', {
      body: { type: 'bounce', kind: 'hard', email: sent.readers[3]!.email, message_id: messageId },
      headers: { 'X-Postbox-Webhook-Secret': SECRET },
    });
    expect(bounce.status).toBe(200);

    const { data: steps, error } = await as
      .viewer!.from('automation_step_report')
      .select('*')
      .eq('automation_id', sent.id);
    expect(error).toBeNull();
    const byStep = new Map((steps ?? []).map((r) => [r.step_id as string, r]));
    expect(pick(byStep.get(sent.steps[0]!)!, FEEDBACK)).toEqual({
      sent: 4,
      failed: 0,
      bounced: 1,
      unsubscribed: 0,
      unique_opens: 1,
      opens: 2,
      unique_clicks: 1,
      clicks: 2,
    });
    expect(pick(byStep.get(sent.steps[1]!)!, FEEDBACK)).toEqual({
      sent: 4,
      failed: 0,
      bounced: 0,
      unsubscribed: 1,
      unique_opens: 0,
      opens: 0,
      unique_clicks: 1,
      clicks: 1,
    });
    const { data: report } = await as
      .viewer!.from('automation_report')
      .select('*')
      .eq('automation_id', sent.id)
      .single();
    expect(pick(report!, ['active', 'completed', 'exited', ...FEEDBACK])).toEqual({
      active: 0,
      completed: 4,
      exited: 0,
      sent: 8,
      failed: 0,
      bounced: 1,
      unsubscribed: 1,
      unique_opens: 1,
      opens: 2,
      unique_clicks: 2,
      clicks: 3,
    });
    const [send] = await sql<{ status: string }>(
      emu,
      `select status from public.automation_sends where step_id = $1 and subscriber_id = $2`,
      [sent.steps[0], sent.readers[3]!.id],
    );
    expect(send!.status).toBe('bounced');
  });

  it('shows the numbers to members only (RLS with real tokens)', async () => {
    for (const role of ['viewer', 'admin']) {
      for (const view of ['automation_report', 'automation_step_report']) {
        const { data } = await as[role]!.from(view).select('*').eq('automation_id', sent.id);
        expect(data?.length, `${role} ${view}`).toBeGreaterThan(0);
      }
    }
    for (const who of ['stranger', 'anon']) {
      for (const view of ['automation_report', 'automation_step_report']) {
        const { data } = await as[who]!.from(view).select('*').eq('automation_id', sent.id);
        expect(data ?? [], `${who} ${view}`).toEqual([]);
      }
    }
    for (const who of ['viewer', 'admin', 'stranger', 'anon']) {
      const { error } = await as[who]!.rpc('record_automation_tracking_event', {
        p_type: 'opened',
        p_subscriber: sent.readers[0]!.id,
        p_step: sent.steps[0],
        p_data: {},
      });
      expect(error, who).not.toBeNull();
    }
  });

  it('refuses a token naming both a campaign and a step, and records nothing', async () => {
    const before = await sql(emu, `select count(*)::int as n from public.events`);
    const token = signTestToken({
      p: 'open',
      s: sent.readers[0]!.id,
      a: sent.steps[0],
      c: sent.steps[0],
    });
    const res = await fetchAs(`${emu.url}/functions/v1/track?t=${token}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('token_invalid');
    expect(await sql(emu, `select count(*)::int as n from public.events`)).toEqual(before);
  });
});

describe('with tracking off', () => {
  it('adds no pixel or tracked links, and an old link still redirects but records nothing', async () => {
    await setTracking(true);
    const before = await sentAutomation(1);
    await setTracking(false);
    const after = await sentAutomation(1);
    const mail = after.mails[0]![0]!;
    expect(trackUrls(mail)).toEqual({ pixel: [], links: [] });
    expect(mail.html).toContain(`href="${POST.replace(/&/g, '&amp;')}"`);
    // The unsubscribe link still names the step: it is not tracking, it is the report's count.
    const unsubscribe = /href="([^"]*\/unsubscribe\/\?token=[^"]*)"/.exec(mail.html)![1]!;
    expect(payloadOf(unsubscribe.replace(/&amp;/g, '&'), 'token')).toMatchObject({
      a: after.steps[0],
    });
    const old = await fetchAs(trackUrls(before.mails[0]![0]!).links[0]!);
    expect([old.status, old.headers.get('location')]).toEqual([302, POST]);
    const { data } = await as
      .viewer!.from('automation_step_report')
      .select('clicks')
      .eq('step_id', before.steps[0]!)
      .single();
    expect(data!.clicks).toBe(0);
  }, 60_000);
});

describe('team:automations', () => {
  type Message = { event: string; payload: { op?: string; ids?: string[] | null } };

  function join(client: SupabaseClient, inbox?: Inbox<Message>): Promise<string> {
    const channel: RealtimeChannel = client
      .channel('team:automations', { config: { private: true } })
      .on('broadcast', { event: '*' }, (m) =>
        inbox?.push({ event: m.event, payload: m.payload as Message['payload'] }),
      );
    return new Promise<string>((resolve) => {
      channel.subscribe((status, err) =>
        resolve(status === 'SUBSCRIBED' ? status : `${status}: ${err?.message ?? ''}`),
      );
    }).then(async (outcome) => {
      if (outcome !== 'SUBSCRIBED') await client.removeChannel(channel);
      return outcome;
    });
  }

  it('lets members join and refuses strangers and anonymous visitors', async () => {
    expect(await join(as.stranger!)).toMatch(/^CHANNEL_ERROR: Unauthorized/);
    expect(await join(as.anon!)).toMatch(/^CHANNEL_ERROR: Unauthorized/);
  });

  it('names the automation when someone enrols, is sent an email, opens and clicks', async () => {
    const heard = new Inbox<Message>();
    expect(await join(as.viewer!, heard)).toBe('SUBSCRIBED');
    await setTracking(true);
    const sent = await sentAutomation(1);
    const names = (m: Message) => m.event === 'changed' && !!m.payload.ids?.includes(sent.id);
    // The automation and its steps were written, the reader enrolled and both emails recorded.
    await heard.next(names);
    while (heard.items.some(names)) await heard.next(names);
    await fetchAs(trackUrls(sent.mails[0]![1]!).links[0]!);
    expect(await heard.next(names)).toMatchObject({ payload: { op: 'update', ids: [sent.id] } });
    // A claim renewed or released moves no number: no message.
    await sql(
      emu,
      `update public.automation_enrolments set updated_at = now() where automation_id = $1`,
      [sent.id],
    );
    await heard.none(names);
  }, 60_000);
});
