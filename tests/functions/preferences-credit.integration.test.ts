// Unsubscribes on the preferences page count for the email that brought the reader there (issue 24):
// the preferences link of a campaign or automation email names that campaign or step in its signed
// token, as the unsubscribe link does, and the preferences function credits the 'unsubscribed'
// events it writes (the form's lists switched off, "unsubscribe from everything") to it. The
// browser sends only the token: a forged or altered one is refused, an older one credits nothing,
// switching a list on again is nobody's credit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, linkIn, signTestToken, sql, waitForMail } from './kit';
import { listWithSubscribers, member, startCampaignEmulator, type Member } from '../campaigns/kit';
import { sentCampaign } from '../campaigns/feedback-kit';
import { drainAutomations, newAutomation, newList } from '../automations/kit';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  admin = await member(emu, 'admin');
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

interface Credited {
  type: string;
  campaign_id: string | null;
  automation_step_id: string | null;
  automation_id: string | null;
  list: string;
  source: string;
}

/** One address's subscription events of these types, oldest first, with what they are credited to. */
function eventsOf(email: string, types = ['unsubscribed']): Promise<Credited[]> {
  return sql<Credited>(
    emu,
    `select e.type, e.campaign_id, e.automation_step_id, e.data ->> 'automation_id' as automation_id,
            e.data ->> 'list' as list, e.data ->> 'source' as source
       from public.events e join public.subscribers s on s.id = e.subscriber_id
      where s.email = $1 and e.type = any($2::text[]) order by e.id`,
    [email, types],
  );
}

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
}

const preferences = (body: Record<string, unknown>) =>
  callFunction(emu, 'preferences', { body, method: 'POST' });

describe('from an automation email', () => {
  let list: { slug: string; id: string };
  let other: { slug: string; id: string };
  let automation: string;
  let step: string;
  const readers: { email: string; token: string; unsubscribeToken: string }[] = [];

  beforeAll(async () => {
    list = await newList(emu, 'prefcredit');
    other = await newList(emu, 'prefother');
    automation = await newAutomation(emu, {
      trigger: { list: list.slug },
      steps: [{ kind: 'email', subject: 'Welcome', body_md: 'Hello.' }],
    });
    [{ id: step }] = (await sql<{ id: string }>(
      emu,
      `select id from public.automation_steps where automation_id = $1`,
      [automation],
    )) as [{ id: string }];
    const stamp = Date.now();
    for (let i = 0; i < 3; i++) {
      const email = `prefcredit-${stamp}-${i}@example.com`;
      await sql(
        emu,
        `with s as (insert into public.subscribers (email) values ($1) returning id)
         insert into public.subscriptions (subscriber_id, list_id, status)
         select s.id, l.id, 'confirmed' from s, public.lists l where l.id = any($2::uuid[])`,
        [email, [list.id, other.id]],
      );
    }
    await drainAutomations(emu);
    for (let i = 0; i < 3; i++) {
      const email = `prefcredit-${stamp}-${i}@example.com`;
      const [mail] = await waitForMail(emu, email);
      readers.push({
        email,
        // The footer's preferences link, as the reader follows it.
        token: linkIn(mail!, '/preferences/').searchParams.get('token')!,
        unsubscribeToken: linkIn(mail!, '/unsubscribe/').searchParams.get('token')!,
      });
    }
  }, 60_000);

  it("signs the step into the email's preferences link, as into its unsubscribe link", () => {
    const [r] = readers;
    expect(payloadOf(r!.token)).toMatchObject({ p: 'preferences', a: step });
    expect(payloadOf(r!.token)).not.toHaveProperty('c');
    expect(payloadOf(r!.unsubscribeToken)).toMatchObject({ p: 'unsubscribe', a: step });
  });

  it('credits "unsubscribe from everything" on the preferences page to the step', async () => {
    const r = readers[0]!;
    const res = await preferences({ token: r.token, action: 'unsubscribe_all' });
    expect(res.status, res.text).toBe(200);
    expect((res.body as { lists: { subscribed: boolean }[] }).lists.some((l) => l.subscribed)).toBe(
      false,
    );
    const events = await eventsOf(r.email);
    expect(
      events.map((e) => [e.list, e.source, e.automation_step_id, e.automation_id]).sort(),
    ).toEqual(
      [list.slug, other.slug].sort().map((slug) => [slug, 'preferences', step, automation]),
    );
    expect(events.every((e) => e.campaign_id === null)).toBe(true);
    // The report counts the reader once for the step (unique), and again nothing on a repeat.
    const again = await preferences({ token: r.token, action: 'unsubscribe_all' });
    expect(again.status).toBe(200);
    expect(await eventsOf(r.email)).toHaveLength(2);
    const [report] = await sql<{ unsubscribed: number }>(
      emu,
      `select unsubscribed from public.automation_step_report where step_id = $1`,
      [step],
    );
    expect(report!.unsubscribed).toBe(1);
  });

  it('credits a list switched off in the form, and not one switched on again', async () => {
    const r = readers[1]!;
    const off = await preferences({ token: r.token, lists: { [other.slug]: false } });
    expect(off.status, off.text).toBe(200);
    const on = await preferences({ token: r.token, lists: { [other.slug]: true } });
    expect(on.status, on.text).toBe(200);
    const events = await eventsOf(r.email, ['unsubscribed', 'resubscribed']);
    const mine = events.filter((e) => e.list === other.slug);
    expect(mine.map((e) => [e.type, e.automation_step_id])).toEqual([
      ['unsubscribed', step],
      ['resubscribed', null],
    ]);
    const [report] = await sql<{ unsubscribed: number }>(
      emu,
      `select unsubscribed from public.automation_step_report where step_id = $1`,
      [step],
    );
    expect(report!.unsubscribed).toBe(2);
  });

  it('trusts only the signature: an altered or forged token changes nothing', async () => {
    const r = readers[2]!;
    const payload = payloadOf(r.token);
    const body = Buffer.from(JSON.stringify({ ...payload, a: automation })).toString('base64url');
    const altered = `${body}.${r.token.split('.')[1]}`;
    const forged = signTestToken({ ...payload }, 'not-the-secret');
    const both = signTestToken({ ...payload, c: automation });
    const lists = signTestToken({ ...payload, l: [list.id] });
    for (const token of [altered, forged, both, lists]) {
      const res = await preferences({ token, action: 'unsubscribe_all' });
      expect(res.status).toBe(400);
      expect((res.body as { error: { code: string } }).error.code).toBe('token_invalid');
    }
    expect(await eventsOf(r.email)).toEqual([]);
  });

  it('still unsubscribes, crediting nothing, once the step is deleted', async () => {
    const r = readers[2]!;
    const [extra] = await sql<{ id: string }>(
      emu,
      `insert into public.automation_steps (automation_id, position, kind, subject, body_md)
       values ($1, 9, 'email', 'Gone', 'Soon deleted.') returning id`,
      [automation],
    );
    const token = signTestToken({ p: 'preferences', s: payloadOf(r.token).s, a: extra!.id });
    await sql(emu, `delete from public.automation_steps where id = $1`, [extra!.id]);
    const res = await preferences({ token, action: 'unsubscribe_all' });
    expect(res.status, res.text).toBe(200);
    const events = await eventsOf(r.email);
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.automation_step_id === null && e.campaign_id === null)).toBe(true);
  });
});

describe('from a campaign email', () => {
  let slug: string;
  let campaignId: string;
  const tag = `prefcamp${Date.now()}`;
  const address = (i: number) => `${tag}-${i}@example.com`;

  beforeAll(async () => {
    slug = await listWithSubscribers(emu, tag, 2);
    campaignId = await sentCampaign(emu, admin, slug);
  }, 60_000);

  it('credits a list switched off on the preferences page to the campaign', async () => {
    const [mail] = await waitForMail(emu, address(1));
    const token = linkIn(mail!, '/preferences/').searchParams.get('token')!;
    expect(payloadOf(token)).toMatchObject({ p: 'preferences', c: campaignId });
    const res = await preferences({ token, lists: { [slug]: false } });
    expect(res.status, res.text).toBe(200);
    const events = await eventsOf(address(1));
    expect(events.map((e) => [e.list, e.source, e.campaign_id, e.automation_step_id])).toEqual([
      [slug, 'preferences', campaignId, null],
    ]);
    // What the campaign's report counts (campaign_report: unsubscribed events naming it).
    const [report] = await sql<{ unsubscribed: number }>(
      emu,
      `select count(distinct subscriber_id)::int as unsubscribed from public.events
        where campaign_id = $1 and type = 'unsubscribed'`,
      [campaignId],
    );
    expect(report!.unsubscribed).toBe(1);
  });

  it('credits nothing through an older preferences link that names no email', async () => {
    const [row] = await sql<{ id: string }>(
      emu,
      `select id from public.subscribers where email = $1`,
      [address(2)],
    );
    const token = signTestToken({ p: 'preferences', s: row!.id });
    const res = await preferences({ token, action: 'unsubscribe_all' });
    expect(res.status, res.text).toBe(200);
    const events = await eventsOf(address(2));
    expect(events.map((e) => [e.list, e.source, e.campaign_id])).toEqual([
      [slug, 'preferences', null],
    ]);
  });
});
