// resend-confirmation (issue 23) through HTTP with real tokens: only admins and owners may send;
// the email arrives in MailDev with a confirm link that works; the per-address limit of the
// subscribe form applies; a rule set such as "pending for more than 2 days" picks exactly its
// matches; an import as pending with the option mails its pending addresses when it is done; the
// send's progress row is readable by members only.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { member, until, type Member } from '../campaigns/kit';
import { address, clientAs, startImport, waitForImport } from '../imports/kit';
import {
  callFunction,
  clientFor,
  createSubscriber,
  linkIn,
  mailFor,
  sql,
  startFunctionsEmulator,
  waitForMail,
} from './kit';

let emu: RunningEmulator;
let admin: Member;
let owner: Member;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  [admin, owner] = await Promise.all([member(emu, 'admin'), member(emu, 'owner')]);
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

interface SendRow {
  id: string;
  status: string;
  total: number | null;
  sent: number;
  failed: number;
  limited: number;
  skipped: number;
  kind: string;
  list_id: string | null;
}

const resend = (bearer: string | undefined, body: unknown) =>
  callFunction(emu, 'resend-confirmation', { bearer, body });

async function waitForSend(id: string, timeoutMs = 30_000): Promise<SendRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await sql<SendRow>(emu, `select * from public.confirmation_sends where id = $1`, [
      id,
    ]);
    if (row?.status === 'done') return row;
    if (Date.now() > deadline) throw new Error(`send ${id} not done: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const statusOn = async (subscriberId: string, slug: string) =>
  (
    await sql<{ status: string }>(
      emu,
      `select s.status from public.subscriptions s join public.lists l on l.id = s.list_id
        where s.subscriber_id = $1 and l.slug = $2`,
      [subscriberId, slug],
    )
  )[0]?.status;

describe('resend-confirmation: who may send', () => {
  it('refuses without a login (401), and editors, viewers and strangers (403), mailing nothing', async () => {
    const pending = await createSubscriber(emu, { newsletter: 'pending' }, { tag: 'refused' });
    const body = { subscriber_ids: [pending.id] };
    expect((await resend(undefined, body)).status).toBe(401);
    for (const role of ['editor', 'viewer', null] as const) {
      const who = await member(emu, role);
      const res = await resend(who.token, body);
      expect(res.status, `${role}`).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect(await sql(emu, `select 1 from public.confirmation_sends`)).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailFor(emu, pending.email)).toHaveLength(0);
  });

  it('refuses a body without subscribers or rules (422)', async () => {
    const res = await resend(admin.token, {});
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_input');
  });
});

describe('resend-confirmation: one pending subscriber', () => {
  it('mails an admin’s resend with a working confirm link, and counts it on the send', async () => {
    const pending = await createSubscriber(
      emu,
      { newsletter: 'pending', 'product-updates': 'confirmed' },
      { tag: 'one' },
    );
    const res = await resend(admin.token, { subscriber_ids: [pending.id] });
    expect(res.status).toBe(202);
    expect(res.body.send).toMatchObject({ total: 1 });
    const [mail] = await waitForMail(emu, pending.email);
    expect(mail!.subject).toMatch(/^Confirm your subscription to /);
    expect(mail!.text).toContain('The Postbox Letter');

    const token = linkIn(mail!, '/confirm/').searchParams.get('token');
    const confirmed = await callFunction(emu, 'confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(await statusOn(pending.id, 'newsletter')).toBe('confirmed');

    const send = await waitForSend(res.body.send.id);
    expect(send).toMatchObject({ total: 1, sent: 1, failed: 0, limited: 0, skipped: 0 });
  });

  it('lets the owner resend; a subscriber with nothing pending is not mailed (total 0)', async () => {
    const confirmed = await createSubscriber(emu, { newsletter: 'confirmed' }, { tag: 'none' });
    const res = await resend(owner.token, { subscriber_ids: [confirmed.id] });
    expect(res.status).toBe(202);
    expect(res.body.send).toMatchObject({ total: 0, status: 'done' });
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailFor(emu, confirmed.email)).toHaveLength(0);
  });

  it('keeps to the subscribe form’s limit of 5 per address per 10 minutes', async () => {
    const pending = await createSubscriber(emu, { newsletter: 'pending' }, { tag: 'limited' });
    await sql(
      emu,
      `insert into private.rate_limits (bucket, key, at)
       select 'subscribe:email', $1, now() - interval '1 minute' from generate_series(1, 5)`,
      [pending.email],
    );
    const res = await resend(admin.token, { subscriber_ids: [pending.id] });
    expect(res.status).toBe(202);
    const send = await waitForSend(res.body.send.id);
    expect(send).toMatchObject({ total: 1, sent: 0, limited: 1 });
    expect(await mailFor(emu, pending.email)).toHaveLength(0);
  });
});

describe('resend-confirmation: every match of a filter', () => {
  it('mails only those pending for more than 2 days among the matches', async () => {
    const domain = `old-${Date.now()}.example.com`;
    const emails = ['stale', 'fresh', 'done'].map((n) => `${n}@${domain}`);
    const ids: string[] = [];
    for (const [i, email] of emails.entries()) {
      const [row] = await sql<{ id: string }>(
        emu,
        `insert into public.subscribers (email) values ($1) returning id`,
        [email],
      );
      ids.push(row!.id);
      await sql(
        emu,
        `insert into public.subscriptions (subscriber_id, list_id, status, created_at)
         select $1, id, $2, now() - $3::interval from public.lists where slug = 'newsletter'`,
        [row!.id, i === 2 ? 'confirmed' : 'pending', i === 1 ? '1 hour' : '3 days'],
      );
    }
    const rules = {
      match: 'all',
      rules: [
        { field: 'email', op: 'ends_with', value: `@${domain}` },
        {
          field: 'subscription',
          op: 'has',
          value: { status: 'pending', subscribed_before: { days_ago: 2 } },
        },
      ],
    };
    const res = await resend(admin.token, { rules });
    expect(res.status).toBe(202);
    expect(res.body.send.total).toBe(1);
    await waitForMail(emu, emails[0]!);
    expect(await waitForSend(res.body.send.id)).toMatchObject({ total: 1, sent: 1 });
    expect(await mailFor(emu, emails[1]!)).toHaveLength(0);
    expect(await mailFor(emu, emails[2]!)).toHaveLength(0);
  });
});

describe('resend-confirmation: an import as pending with the option', () => {
  it('mails every address the import left pending once it is done, with working links', async () => {
    const people = [address('imported'), address('imported')];
    const client = clientAs(emu, admin.token);
    const path = `${randomUUID()}.csv`;
    const csv = `email,name\n${people[0]},Ada\n${people[1]},Grace\n`;
    const upload = await client.storage
      .from('imports')
      .upload(path, new Blob([csv], { type: 'text/csv' }), { contentType: 'text/csv' });
    expect(upload.error).toBeNull();
    const [newsletter] = await sql<{ id: string }>(
      emu,
      `select id from public.lists where slug = 'newsletter'`,
    );
    // The import dialog's option, as the browser writes it (RLS: the admin's own queued import).
    const queued = await client
      .from('imports')
      .insert({
        object_path: path,
        list_ids: [newsletter!.id],
        optin: 'pending',
        send_confirmations: true,
      })
      .select('id')
      .single();
    expect(queued.error).toBeNull();
    const started = await startImport(emu, admin.token, queued.data!.id as string);
    expect(started.status).toBe(202);
    const done = await waitForImport(emu, queued.data!.id as string);
    expect(done.status).toBe('done');
    const mails = await Promise.all(people.map((p) => waitForMail(emu, p)));
    const [send] = await sql<SendRow>(
      emu,
      `select * from public.confirmation_sends where import_id = $1`,
      [done.id],
    );
    expect(send).toBeDefined();
    expect(await waitForSend(send!.id)).toMatchObject({ total: 2, sent: 2 });

    const token = linkIn(mails[1]![0]!, '/confirm/').searchParams.get('token');
    expect((await callFunction(emu, 'confirm', { body: { token } })).status).toBe(200);
    const [grace] = await sql<{ id: string }>(
      emu,
      `select id from public.subscribers where email = $1`,
      [people[1]],
    );
    expect(await statusOn(grace!.id, 'newsletter')).toBe('confirmed');
  });
});

describe('Let in with the target list’s welcome (its welcome automation, issue 24)', () => {
  const listId = async (slug: string) =>
    (await sql<{ id: string }>(emu, `select id from public.lists where slug = $1`, [slug]))[0]!.id;
  const welcomeSends = (ids: string[]) =>
    sql<{ subscriber_id: string; status: string }>(
      emu,
      `select x.subscriber_id, x.status from public.automation_sends x
         join public.automations a on a.id = x.automation_id and a.welcome
        where x.subscriber_id = any($1::uuid[]) order by x.subscriber_id`,
      [ids],
    );

  it('enrols those the Let in subscribed in the welcome, not one already on the list; it goes out at once', async () => {
    const joining = await Promise.all(
      [0, 1].map((i) =>
        createSubscriber(emu, { 'early-access': 'confirmed' }, { tag: `welcome${i}` }),
      ),
    );
    const already = await createSubscriber(
      emu,
      { 'early-access': 'confirmed', newsletter: 'confirmed' },
      { tag: 'already' },
    );
    const [waitlist, target] = await Promise.all(['early-access', 'newsletter'].map(listId));
    const res = await clientAs(emu, admin.token).rpc('let_in_from_waitlist', {
      p_list: waitlist,
      p_target: target,
      p_subscribers: [...joining, already].map((s) => s.id),
      p_welcome: true,
    });
    expect(res.error).toBeNull();
    expect(res.data).toEqual({
      let_in: 3,
      campaign_id: null,
      welcome_send_id: null,
      welcome_enrolled: 2,
    });

    // No queue run by this test: the Let in itself started one.
    for (const person of joining) {
      const [mail] = await waitForMail(emu, person.email);
      expect(mail!.subject).toBe('Welcome to The Postbox Letter');
      expect(mail!.text).toContain('You are now subscribed to The newsletter');
    }
    // Each recorded as the welcome automation's send (just after its mail went out).
    const ids = joining.map((p) => p.id);
    await until(async () => (await welcomeSends(ids)).length === 2, 15_000, 'the welcome sends');
    expect(await welcomeSends(ids)).toEqual(
      [...ids].sort().map((id) => ({ subscriber_id: id, status: 'sent' })),
    );
    expect(await mailFor(emu, already.email)).toHaveLength(0);
    // Nothing is queued as a send of its own any more.
    const [{ n }] = (await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.confirmation_sends where kind = 'welcome'`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('sends nothing without the option: a Let in is not a sign-up', async () => {
    const quiet = await createSubscriber(emu, { 'early-access': 'confirmed' }, { tag: 'quiet' });
    const [waitlist, target] = await Promise.all(['early-access', 'product-updates'].map(listId));
    const without = await clientAs(emu, admin.token).rpc('let_in_from_waitlist', {
      p_list: waitlist,
      p_target: target,
      p_subscribers: [quiet.id],
    });
    expect(without.data).toMatchObject({ let_in: 1, welcome_send_id: null, welcome_enrolled: 0 });
    const [{ n }] = (await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.automation_enrolments e
         join public.automations a on a.id = e.automation_id and a.welcome
        where e.subscriber_id = $1`,
      [quiet.id],
    )) as [{ n: number }];
    expect(n).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await mailFor(emu, quiet.email)).toHaveLength(0);
  });
});

describe('confirmation_sends: row-level security with real tokens', () => {
  it('members read the sends; anonymous callers read nothing and nobody writes them', async () => {
    const viewer = await member(emu, 'viewer');
    const stranger = await member(emu, null);
    const seen = await clientAs(emu, viewer.token).from('confirmation_sends').select('id');
    expect(seen.error).toBeNull();
    expect(seen.data!.length).toBeGreaterThan(0);
    const none = await clientAs(emu, stranger.token).from('confirmation_sends').select('id');
    expect(none.data).toEqual([]);
    const anon = await clientFor(emu, 'publishable').from('confirmation_sends').select('id');
    expect(anon.data ?? []).toEqual([]);
    const write = await clientAs(emu, admin.token)
      .from('confirmation_sends')
      .insert({ status: 'queued' });
    expect(write.error).not.toBeNull();
    const rpc = await clientAs(emu, admin.token).rpc('start_confirmation_send', {
      p_rules: null,
      p_actor: admin.id,
    });
    expect(rpc.error).not.toBeNull();
  });
});
