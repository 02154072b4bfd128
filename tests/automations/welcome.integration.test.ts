// The welcome as a seeded automation (issue 24): one "Welcome to <list>" per public list, in the
// team's wording or the default converted to the automation's merge tags; a list made public later
// gets one once (not again after the team deleted it); lists that are not public get none. Only
// sign-ups from the form are welcomed — not imports, team adds, bulk adds or the service key — and
// the welcome goes out at once without anyone running the queue (the sign-up starts a run).
// Pausing it stops welcomes.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { runBulk } from '../../lib/admin/subscriber-bulk';
import { DEFAULT_TEMPLATES, welcomeAutomationTemplate } from '../../lib/email-render/system-emails';
import { member, startCampaignEmulator, until, type Member } from '../campaigns/kit';
import { clientAs } from '../imports/kit';
import {
  callFunction,
  clientFor,
  createSubscriber,
  linkIn,
  mailFor,
  sql,
  waitForMail,
} from '../functions/kit';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  admin = await member(emu, 'admin');
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

interface Seeded {
  id: string;
  name: string;
  status: string;
  trigger_kind: string;
  trigger_signups_only: boolean;
  welcome: boolean;
  steps: { kind: string; subject: string; preheader: string; body_md: string }[];
}

/** The welcome automations on a list, with their steps. */
async function welcomesOf(listId: string): Promise<Seeded[]> {
  return sql<Seeded>(
    emu,
    `select a.id, a.name, a.status, a.trigger_kind, a.trigger_signups_only, a.welcome,
            (select coalesce(jsonb_agg(jsonb_build_object('kind', s.kind, 'subject', s.subject,
                      'preheader', s.preheader, 'body_md', s.body_md) order by s.position), '[]')
               from public.automation_steps s where s.automation_id = a.id) as steps
       from public.automations a where a.trigger_list_id = $1 and a.welcome order by a.created_at`,
    [listId],
  );
}

const slug = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

async function insertList(
  prefix: string,
  visibility: 'public' | 'private',
  optin: 'single' | 'double' = 'single',
): Promise<{ id: string; slug: string; name: string }> {
  const s = slug(prefix);
  const name = `List ${s}`;
  const [row] = await sql<{ id: string }>(
    emu,
    `insert into public.lists (slug, name, visibility, optin) values ($1, $2, $3, $4) returning id`,
    [s, name, visibility, optin],
  );
  return { id: row!.id, slug: s, name };
}

const subscribe = (email: string, lists: string[]) =>
  callFunction(emu, 'subscribe', { body: { email, lists } });

async function enrolmentsIn(automationId: string, subscriberIds: string[]): Promise<number> {
  const [row] = await sql<{ n: number }>(
    emu,
    `select count(*)::int as n from public.automation_enrolments
      where automation_id = $1 and subscriber_id = any($2::uuid[])`,
    [automationId, subscriberIds],
  );
  return row!.n;
}

describe('seeding', () => {
  it('gave every public list of the seed its welcome, in the default wording, and the private list none', async () => {
    const lists = await sql<{ id: string; name: string; visibility: string }>(
      emu,
      `select id, name, visibility from public.lists
        where slug in ('newsletter', 'product-updates', 'early-access', 'beta-testers')`,
    );
    expect(lists).toHaveLength(4);
    const expected = welcomeAutomationTemplate(DEFAULT_TEMPLATES.welcome);
    for (const list of lists) {
      const welcomes = await welcomesOf(list.id);
      if (list.visibility !== 'public') {
        expect(welcomes).toEqual([]);
        continue;
      }
      expect(welcomes).toEqual([
        {
          id: expect.any(String),
          name: `Welcome to ${list.name}`,
          status: 'active',
          trigger_kind: 'list',
          trigger_signups_only: true,
          welcome: true,
          steps: [{ kind: 'email', ...expected }],
        },
      ]);
    }
    // The default converted: the trigger list where the system email named the lists.
    expect(expected.preheader).toBe('You are now subscribed to {{ list.name }}.');
    expect(expected.body_md).toContain('on the {{ list.name }}. Every friend who signs up');
    expect(expected.body_md).not.toMatch(/\{\{ lists \}\}|waitlist\.list/);
  });

  it('moves a welcome still on the old default to the new one, and leaves an edited one alone', async () => {
    // The update of migration 20261204100000 (the referral link shown as text), run again here
    // on a welcome set back to the old default word for word and on one the team edited.
    const migration = readFileSync(
      'supabase/migrations/20261204100000_welcome_referral_link_text.sql',
      'utf8',
    );
    const update = migration.slice(migration.indexOf('update public.automation_steps'));
    const oldDefault = welcomeAutomationTemplate({
      ...DEFAULT_TEMPLATES.welcome,
      body_md: DEFAULT_TEMPLATES.welcome.body_md.replace(
        'Every friend who signs up through your link and confirms moves you up. Your link to share: [{{ waitlist.referral_url }}]({{ waitlist.referral_url }})\n',
        'Share your link: every friend who signs up and confirms moves you up.\n\n[Your referral link]({{ waitlist.referral_url }})\n',
      ),
    }).body_md;
    expect(oldDefault).toContain('[Your referral link]');
    const untouched = await insertList('old-default', 'public');
    const edited = await insertList('edited', 'public');
    const setBody = (listId: string, body: string) =>
      sql(
        emu,
        `update public.automation_steps s set body_md = $2 from public.automations a
          where a.id = s.automation_id and a.trigger_list_id = $1 and a.welcome`,
        [listId, body],
      );
    await setBody(untouched.id, oldDefault);
    await setBody(edited.id, `${oldDefault}\nP.S. Reply any time.`);

    await sql(emu, update);
    const expected = welcomeAutomationTemplate(DEFAULT_TEMPLATES.welcome).body_md;
    expect((await welcomesOf(untouched.id))[0]!.steps[0]!.body_md).toBe(expected);
    expect(expected).toContain(
      'Your link to share: [{{ waitlist.referral_url }}]({{ waitlist.referral_url }})',
    );
    expect((await welcomesOf(edited.id))[0]!.steps[0]!.body_md).toBe(
      `${oldDefault}\nP.S. Reply any time.`,
    );
  });

  it('seeds a list made public later (insert or update) once, never again after the team deleted it; none for a private one', async () => {
    const born = await insertList('born-public', 'public');
    expect(await welcomesOf(born.id)).toHaveLength(1);

    const hidden = await insertList('private', 'private');
    expect(await welcomesOf(hidden.id)).toEqual([]);
    await sql(emu, `update public.lists set description = 'still private' where id = $1`, [
      hidden.id,
    ]);
    expect(await welcomesOf(hidden.id)).toEqual([]);

    await sql(emu, `update public.lists set visibility = 'public' where id = $1`, [hidden.id]);
    const [seeded] = await welcomesOf(hidden.id);
    expect(seeded).toMatchObject({ name: `Welcome to ${hidden.name}`, status: 'active' });
    // Private and public again, renamed: still the one.
    await sql(emu, `update public.lists set visibility = 'private' where id = $1`, [hidden.id]);
    await sql(
      emu,
      `update public.lists set visibility = 'public', name = name || '!' where id = $1`,
      [hidden.id],
    );
    expect(await welcomesOf(hidden.id)).toHaveLength(1);

    // The team deletes it (admins may delete a live automation): it is not seeded again.
    const gone = await clientAs(emu, admin.token)
      .from('automations')
      .delete()
      .eq('id', seeded!.id)
      .select('id');
    expect(gone.error).toBeNull();
    expect(gone.data).toHaveLength(1);
    await sql(emu, `update public.lists set visibility = 'private' where id = $1`, [hidden.id]);
    await sql(emu, `update public.lists set visibility = 'public' where id = $1`, [hidden.id]);
    expect(await welcomesOf(hidden.id)).toEqual([]);
  });

  it('deletes a list’s welcome with the list, not the team’s own automations on it', async () => {
    const list = await insertList('deleted', 'public');
    const [welcome] = await welcomesOf(list.id);
    const { data: own } = await clientAs(emu, admin.token)
      .from('automations')
      .insert({ name: 'Own on a deleted list', trigger_kind: 'list', trigger_list_id: list.id })
      .select('id')
      .single();
    await sql(emu, `delete from public.lists where id = $1`, [list.id]);
    const left = await sql<{ id: string; trigger_list_id: string | null }>(
      emu,
      `select id, trigger_list_id from public.automations where id = any($1::uuid[])`,
      [[welcome!.id, own!.id]],
    );
    expect(left).toEqual([{ id: own!.id, trigger_list_id: null }]);
  });

  it('carries the team’s own welcome wording from Settings → Emails, converted', async () => {
    const custom = {
      subject: 'Hello from {{ site.name }}',
      preheader: 'Now on {{ lists }}',
      body_md: 'Thanks for joining {{lists}}, {{ subscriber.first_name | default: "friend" }}.\n',
    };
    await sql(
      emu,
      `insert into public.email_templates (kind, subject, preheader, body_md) values ('welcome', $1, $2, $3)
       on conflict (kind) do update set subject = excluded.subject, preheader = excluded.preheader,
         body_md = excluded.body_md`,
      [custom.subject, custom.preheader, custom.body_md],
    );
    try {
      const list = await insertList('custom', 'public');
      const [seeded] = await welcomesOf(list.id);
      expect(seeded!.steps).toEqual([
        {
          kind: 'email',
          subject: 'Hello from {{ site.name }}',
          preheader: 'Now on {{ list.name }}',
          body_md:
            'Thanks for joining {{ list.name }}, {{ subscriber.first_name | default: "friend" }}.\n',
        },
      ]);
      expect(seeded!.steps[0]).toEqual({ kind: 'email', ...welcomeAutomationTemplate(custom) });
    } finally {
      await sql(emu, `delete from public.email_templates where kind = 'welcome'`);
    }
  });
});

describe('who is welcomed', () => {
  it('a sign-up through the form gets the welcome at once, with the list named; nobody runs the queue', async () => {
    const list = await insertList('signup', 'public');
    const email = `signup-${Math.random().toString(36).slice(2)}@example.com`;
    expect((await subscribe(email, [list.slug])).status).toBe(200);
    const [welcome] = await waitForMail(emu, email, 1);
    expect(welcome!.subject).toBe('Welcome to The Postbox Letter');
    expect(welcome!.text).toContain(
      `You are now subscribed to ${list.name} from The Postbox Letter.`,
    );
    expect(welcome!.text).not.toContain('You are number');
    expect(linkIn(welcome!, '/unsubscribe/').searchParams.get('token')).toBeTruthy();
    const [seeded] = await welcomesOf(list.id);
    // Recorded as the welcome automation's send just after the mail went out.
    const sent = () =>
      sql<{ status: string }>(
        emu,
        `select x.status from public.automation_sends x join public.subscribers s on s.id = x.subscriber_id
          where x.automation_id = $1 and s.email = $2`,
        [seeded!.id, email],
      );
    await until(async () => (await sent()).length > 0, 15_000, 'the welcome send');
    expect(await sent()).toEqual([{ status: 'sent' }]);
  });

  it('imports, team adds, bulk adds and the service key do not start it; a user-made automation on the list still does', async () => {
    const list = await insertList('quiet', 'public');
    const [welcome] = await welcomesOf(list.id);
    // A team's own automation on the same list: off by default, so everyone joining starts it.
    const { data: own } = await clientAs(emu, admin.token)
      .from('automations')
      .insert({ name: 'Own', trigger_kind: 'list', trigger_list_id: list.id })
      .select('id, trigger_signups_only')
      .single();
    expect(own).toMatchObject({ trigger_signups_only: false });
    await clientAs(emu, admin.token).from('automation_steps').insert({
      automation_id: own!.id,
      position: 1,
      kind: 'wait',
      wait_seconds: 86400,
    });
    expect(
      (
        await clientAs(emu, admin.token)
          .from('automations')
          .update({ status: 'active' })
          .eq('id', own!.id)
      ).error,
    ).toBeNull();

    // The service key (source api).
    const byKey = await createSubscriber(emu, { [list.slug]: 'confirmed' }, { tag: 'by-key' });
    // A team member adds someone in the admin (source team).
    const byTeam = await createSubscriber(emu, {}, { tag: 'by-team' });
    const added = await clientAs(emu, admin.token)
      .from('subscriptions')
      .insert({ subscriber_id: byTeam.id, list_id: list.id, status: 'confirmed' });
    expect(added.error).toBeNull();
    // A bulk "add to list" on every match of a filter.
    const tag = `bulk${Math.random().toString(36).slice(2, 8)}`;
    const bulk = await Promise.all([0, 1].map(() => createSubscriber(emu, {}, { tag })));
    await runBulk(
      clientAs(emu, admin.token),
      'add',
      { match: 'all', rules: [{ field: 'search', op: 'contains', value: tag }] },
      { list: list.id, status: 'confirmed' },
    );
    // An import (the import function's source).
    const imported = await createSubscriber(emu, {}, { tag: 'imported' });
    await sql(
      emu,
      `do $$ begin
         perform set_config('postbox.source', 'import', true);
         insert into public.subscriptions (subscriber_id, list_id, status)
         values ('${imported.id}', '${list.id}', 'confirmed');
       end $$`,
    );

    const everyone = [byKey, byTeam, ...bulk, imported].map((s) => s.id);
    const [{ n }] = (await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.subscriptions
        where list_id = $1 and status = 'confirmed' and subscriber_id = any($2::uuid[])`,
      [list.id, everyone],
    )) as [{ n: number }];
    expect(n).toBe(5);
    expect(await enrolmentsIn(welcome!.id, everyone)).toBe(0);
    expect(await enrolmentsIn(own!.id, everyone)).toBe(5);
    for (const s of [byKey, byTeam, ...bulk, imported])
      expect(await mailFor(emu, s.email)).toHaveLength(0);
  });

  it('pausing the welcome stops welcomes; the editor’s option can let every join start it', async () => {
    const list = await insertList('paused', 'public');
    const [welcome] = await welcomesOf(list.id);
    const admin$ = clientAs(emu, admin.token);
    expect(
      (await admin$.from('automations').update({ status: 'paused' }).eq('id', welcome!.id)).error,
    ).toBeNull();
    const email = `paused-${Math.random().toString(36).slice(2)}@example.com`;
    expect((await subscribe(email, [list.slug])).status).toBe(200);
    const [row] = await sql<{ id: string }>(
      emu,
      `select id from public.subscribers where email = $1`,
      [email],
    );
    expect(await enrolmentsIn(welcome!.id, [row!.id])).toBe(0);

    // Started again with "only new sign-ups" off: a team add now starts it too.
    expect(
      (
        await admin$
          .from('automations')
          .update({ status: 'active', trigger_signups_only: false })
          .eq('id', welcome!.id)
      ).error,
    ).toBeNull();
    const byKey = await createSubscriber(emu, { [list.slug]: 'confirmed' }, { tag: 'after' });
    expect(await enrolmentsIn(welcome!.id, [byKey.id])).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailFor(emu, email)).toHaveLength(0);
  });
});

describe('waitlist standings for automation emails', () => {
  it('answer the service role only', async () => {
    const list = await insertList('standings', 'public');
    const service = await clientFor(emu, 'service').rpc('automation_waitlist_standings', {
      p_list: list.id,
      p_subscribers: [],
    });
    expect(service.error).toBeNull();
    expect(service.data).toEqual([]);
    const denied = await clientAs(emu, admin.token).rpc('automation_waitlist_standings', {
      p_list: list.id,
      p_subscribers: [],
    });
    expect(denied.error).not.toBeNull();
  });
});
