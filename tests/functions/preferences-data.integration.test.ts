// The `preferences` function over HTTP (SPEC §7), the data half: export and delete of a
// subscriber's data, token checks and HTTP refusals, against the real functions and migrations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  clientFor,
  signTestToken,
  snapshot,
  sql,
  startFunctionsEmulator,
} from './kit';
import { preferencesPerson, type Person } from './preferences-kit';
import { newAutomation } from '../automations/kit';

let emu: RunningEmulator;

const WEBHOOK_SECRET = 'preferences-data-webhook-secret';

beforeAll(async () => {
  process.env.POSTBOX_WEBHOOK_SECRET = WEBHOOK_SECRET;
  emu = await startFunctionsEmulator();
});
afterAll(async () => {
  await emu?.stop();
});

const person = (
  subscriptions?: Record<string, string>,
  options?: Parameters<typeof preferencesPerson>[2],
): Promise<Person> => preferencesPerson(emu, subscriptions, options);

/**
 * Events written after the arrangement (which the kit's SQL writes with source "system"); rows
 * changed by one statement share created_at and come in no set order, so they are sorted by list.
 */
async function eventsOf(
  who: Person,
): Promise<{ type: string; list: string | null; source: string }[]> {
  return sql(
    emu,
    `select type, data->>'list' as list, data->>'source' as source from public.events
      where subscriber_id = $1 and data->>'source' <> 'system'
      order by created_at, data->>'list', id`,
    [who.id],
  );
}

const post = (body: Record<string, unknown>) => callFunction(emu, 'preferences', { body });

describe('POST action export', () => {
  it("answers everything held on the address, nobody else's data, and records an exported event", async () => {
    const referrer = await person({ 'early-access': 'confirmed' });
    const who = await person(
      { newsletter: 'confirmed', 'early-access': 'confirmed' },
      { referredBy: referrer },
    );
    const referred = await person({ 'early-access': 'pending' }, { referredBy: who });
    const res = await post({ token: who.token, action: 'export' });
    expect(res.status).toBe(200);
    const { data } = res.body;
    const [row] = await sql<{ referral_code: string; created_at: string }>(
      emu,
      'select referral_code, created_at from public.subscribers where id = $1',
      [who.id],
    );
    expect(data.subscriber).toMatchObject({
      id: who.id,
      email: who.email,
      name: 'Test Person',
      attributes: { plan: 'pro' },
      status: 'enabled',
    });
    expect(new Date(data.subscriber.created_at).getTime()).toBe(
      new Date(row!.created_at).getTime(),
    );
    expect(data.referral).toEqual({
      code: row!.referral_code,
      referred_by_someone: true,
      referrals: 1,
    });
    expect(
      data.subscriptions.map((s: { list: { slug: string; name: string }; status: string }) => [
        s.list.slug,
        s.list.name,
        s.status,
      ]),
    ).toEqual([
      ['early-access', 'Early access waitlist', 'confirmed'],
      ['newsletter', 'The newsletter', 'confirmed'],
    ]);
    expect(
      data.events.map((e: { type: string; data: { list: string } }) => [e.type, e.data.list]),
    ).toEqual([
      ['subscribed', 'newsletter'],
      ['confirmed', 'newsletter'],
      ['subscribed', 'early-access'],
      ['confirmed', 'early-access'],
    ]);
    expect(data.deliveries).toEqual([]);
    expect(data.automations).toEqual([]);
    // Nothing identifies the referrer or the person this subscriber referred.
    const text = JSON.stringify(res.body);
    for (const other of [referrer, referred]) {
      expect(text).not.toContain(other.email);
      expect(text).not.toContain(other.id);
    }
    expect(text).not.toContain('ada@example.com');
    expect(await eventsOf(who)).toEqual([{ type: 'exported', list: null, source: 'preferences' }]);
  });
  it('includes their automation progress: which, state, current step, started, finished, emails', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const done = await newAutomation(emu, {
      name: 'Welcome series',
      trigger: 'manual',
      steps: [
        { kind: 'email', subject: 'Welcome', body_md: 'Hi.' },
        { kind: 'wait', wait_seconds: 3600 },
        { kind: 'email', subject: 'Day two', body_md: 'Again.' },
      ],
    });
    const running = await newAutomation(emu, {
      name: 'Onboarding',
      trigger: 'manual',
      steps: [
        { kind: 'wait', wait_seconds: 86400 },
        { kind: 'email', subject: 'Tips for {{ subscriber.first_name }}', body_md: 'Tips.' },
      ],
    });
    // Arranged as the engine leaves them: one finished with its two emails, one at its email step.
    await sql(
      emu,
      `insert into public.automation_enrolments
         (automation_id, subscriber_id, step_id, state, due_at, enrolled_at, finished_at)
       values ($1, $3, (select id from public.automation_steps where automation_id = $1 and position = 3),
               'completed', '2026-11-20T10:00:00Z', '2026-11-20T09:00:00Z', '2026-11-20T10:00:00Z'),
              ($2, $3, (select id from public.automation_steps where automation_id = $2 and position = 2),
               'active', '2026-11-22T09:00:00Z', '2026-11-21T09:00:00Z', null)`,
      [done, running, who.id],
    );
    await sql(
      emu,
      `insert into public.automation_sends (automation_id, step_id, subscriber_id, round, status, attempts, sent_at, created_at)
       select $1, s.id, $2, 1, 'sent', 1, t, t
         from public.automation_steps s
         join (values (1, timestamptz '2026-11-20T09:00:00Z'), (3, timestamptz '2026-11-20T10:00:00Z')) v(p, t)
           on v.p = s.position
        where s.automation_id = $1`,
      [done, who.id],
    );
    const res = await post({ token: who.token, action: 'export' });
    expect(res.status).toBe(200);
    const at = (iso: string) => new Date(iso).getTime();
    const automations = res.body.data.automations as Array<Record<string, unknown>>;
    expect(
      automations.map((a) => ({
        ...a,
        started_at: at(a.started_at as string),
        finished_at: a.finished_at ? at(a.finished_at as string) : null,
      })),
    ).toMatchObject([
      {
        automation: 'Welcome series',
        state: 'completed',
        exit_reason: null,
        round: 1,
        steps: 3,
        started_at: at('2026-11-20T09:00:00Z'),
        finished_at: at('2026-11-20T10:00:00Z'),
        current_step: null,
        emails: [
          { subject: 'Welcome', status: 'sent', round: 1 },
          { subject: 'Day two', status: 'sent', round: 1 },
        ],
      },
      {
        automation: 'Onboarding',
        state: 'active',
        steps: 2,
        started_at: at('2026-11-21T09:00:00Z'),
        finished_at: null,
        current_step: { number: 2, kind: 'email', subject: 'Tips for {{ subscriber.first_name }}' },
        emails: [],
      },
    ]);
    // Nobody else's progress.
    expect(JSON.stringify(res.body)).not.toContain('ada@example.com');
  });
});

describe('POST action delete', () => {
  it('erases every row holding the address and leaves exactly one anonymous deleted event', async () => {
    const who = await person({ newsletter: 'confirmed', 'early-access': 'confirmed' });
    const referred = await person({ 'early-access': 'pending' }, { referredBy: who });
    await post({ token: who.token, action: 'export' });
    await sql(
      emu,
      `insert into private.rate_limits (bucket, key, at) values ('subscribe:email', $1, now())`,
      [who.email],
    );
    const [{ max } = { max: 0 }] = await sql<{ max: number }>(
      emu,
      'select coalesce(max(id), 0)::int as max from public.events',
    );
    const res = await post({ token: who.token, action: 'delete' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });

    const [left] = await sql<{
      subscribers: number;
      subscriptions: number;
      events: number;
      limits: number;
    }>(
      emu,
      `select (select count(*)::int from public.subscribers where email = $1 or id = $2) as subscribers,
              (select count(*)::int from public.subscriptions where subscriber_id = $2) as subscriptions,
              (select count(*)::int from public.events
                where subscriber_id = $2 or data::text like '%' || $1 || '%' or data::text like '%' || $2 || '%') as events,
              (select count(*)::int from private.rate_limits where key like '%' || $1 || '%') as limits`,
      [who.email, who.id],
    );
    expect(left).toEqual({ subscribers: 0, subscriptions: 0, events: 0, limits: 0 });
    expect(await snapshot(emu)).not.toContain(who.email);
    const added = await sql<{ subscriber_id: string | null; type: string; data: unknown }>(
      emu,
      'select subscriber_id, type, data from public.events where id > $1 order by id',
      [max],
    );
    expect(added).toEqual([
      { subscriber_id: null, type: 'deleted', data: { source: 'preferences' } },
    ]);
    // The person they referred stays, no longer linked to a deleted row.
    const [kept] = await sql<{ referred_by: string | null }>(
      emu,
      'select referred_by from public.subscribers where id = $1',
      [referred.id],
    );
    expect(kept!.referred_by).toBeNull();
    // The old link now leads nowhere.
    const after = await callFunction(emu, 'preferences', { query: { token: who.token } });
    expect(after.status).toBe(400);
    expect(after.body.error.code).toBe('token_invalid');
  });
});

describe('POST action delete after mail provider events', () => {
  it('leaves the address in no table, the webhook receipts included', async () => {
    const who = await person({ newsletter: 'confirmed' });
    // Events without a Message-ID are remembered by address and time, to spot a provider's retry.
    const events = await callFunction(emu, 'email-events', {
      body: [
        { type: 'bounce', kind: 'soft', email: who.email, occurred_at: '2026-11-20T10:00:00Z' },
        { type: 'complaint', email: who.email.toUpperCase(), occurred_at: '2026-11-20T11:00:00Z' },
      ],
      headers: { 'X-Postbox-Webhook-Secret': WEBHOOK_SECRET },
    });
    expect(events.status).toBe(200);
    expect(events.body).toMatchObject({ recorded: 2 });
    expect(await tablesHolding(who.email)).toContain('private.email_event_receipts');

    const res = await post({ token: who.token, action: 'delete' });
    expect(res.status).toBe(200);
    expect(await tablesHolding(who.email)).toEqual([]);
    expect(await tablesHolding(who.id)).toEqual([]);
  });
});

/** Every table of the public and private schemas with a row whose text contains `needle`. */
async function tablesHolding(needle: string): Promise<string[]> {
  const tables = await sql<{ name: string }>(
    emu,
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
      where table_schema in ('public', 'private') and table_type = 'BASE TABLE' order by 1`,
  );
  const holding: string[] = [];
  for (const { name } of tables) {
    const [row] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from ${name} t where strpos(lower(t::text), lower($1)) > 0`,
      [needle],
    );
    if (row!.n > 0) holding.push(name);
  }
  return holding;
}

describe('tokens', () => {
  it('refuses forged, malformed, wrong-purpose and stale tokens with 400 and changes nothing', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const gone = await person({ newsletter: 'confirmed' });
    await sql(emu, 'delete from public.subscribers where id = $1', [gone.id]);
    const bad = [
      signTestToken({ p: 'preferences', s: who.id }, 'another-secret'),
      signTestToken({ p: 'unsubscribe', s: who.id }),
      signTestToken({ p: 'confirm', s: who.id }),
      signTestToken({ p: 'preferences', s: 'not-a-uuid' }),
      signTestToken({ p: 'preferences' }),
      `${who.token}x`,
      'garbage',
      '',
      gone.token,
    ];
    const before = await snapshot(emu);
    for (const token of bad) {
      const get = await callFunction(emu, 'preferences', { query: { token } });
      expect(get.status, `GET ${token}`).toBe(400);
      expect(get.body.error).toEqual({ code: 'token_invalid', message: 'This link is not valid.' });
      for (const body of [
        { token, name: 'Mallory', lists: { newsletter: false } },
        { token, action: 'unsubscribe_all' },
        { token, action: 'export' },
        { token, action: 'delete' },
      ]) {
        const res = await post(body);
        expect(res.status, `${JSON.stringify(body)}`).toBe(400);
        expect(res.body.error.code).toBe('token_invalid');
      }
    }
    expect(await snapshot(emu)).toBe(before);
  });
});

describe('the SQL functions behind the tokens', () => {
  const FUNCTIONS = [
    'get_unsubscribe(uuid, uuid[])',
    'unsubscribe_subscriber(uuid, uuid[], text)',
    'resubscribe_subscriber(uuid, uuid[])',
    'get_preferences(uuid)',
    'update_preferences(uuid, text, jsonb)',
    'export_subscriber(uuid)',
    'delete_subscriber_data(uuid)',
  ];

  it('only the service role may execute them: the token check cannot be skipped', async () => {
    for (const fn of FUNCTIONS) {
      const [row] = await sql<Record<string, boolean>>(
        emu,
        `select has_function_privilege('anon', $1, 'execute') as anon,
                has_function_privilege('authenticated', $1, 'execute') as authenticated,
                has_function_privilege('service_role', $1, 'execute') as service_role`,
        [`public.${fn}`],
      );
      expect(row, fn).toEqual({ anon: false, authenticated: false, service_role: true });
    }
  });

  it('refuses a visitor calling one directly over REST', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const before = await snapshot(emu);
    const visitor = clientFor(emu, 'publishable');
    const { error } = await visitor.rpc('delete_subscriber_data', { p_subscriber: who.id });
    expect(error).not.toBeNull();
    const exported = await visitor.rpc('export_subscriber', { p_subscriber: who.id });
    expect(exported.data).toBeNull();
    expect(exported.error).not.toBeNull();
    expect(await snapshot(emu)).toBe(before);
  });
});

describe('HTTP', () => {
  it('answers the CORS preflight with 204 and refuses other methods with 405', async () => {
    const preflight = await fetch(`${emu.url}/functions/v1/preferences`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const res = await callFunction(emu, 'preferences', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('refuses a wrong content type, invalid JSON, a bad action and a body over 16 KB', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const before = await snapshot(emu);
    const raw = async (rawBody: string, type: string) =>
      callFunction(emu, 'preferences', {
        method: 'POST',
        rawBody,
        headers: { 'Content-Type': type },
      });
    const form = await raw(`token=${who.token}&action=delete`, 'application/x-www-form-urlencoded');
    expect(form.status).toBe(422);
    expect(form.body.error.code).toBe('invalid_input');
    const broken = await raw('{"token":', 'application/json');
    expect(broken.status).toBe(422);
    for (const body of [
      { token: who.token, action: 'destroy' },
      { token: who.token, action: 'delete', name: 'x' },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'invalid_input', field: 'action' });
    }
    const big = await post({ token: who.token, name: 'x', pad: 'y'.repeat(17 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('payload_too_large');
    expect(await snapshot(emu)).toBe(before);
  });
});
