// The `preferences` function over HTTP (SPEC §7): the page, saving name and lists, unsubscribe
// from all, and the subscriber's data (export, delete), against the real functions and migrations.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, signTestToken, snapshot, sql, startFunctionsEmulator } from './kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
});
afterAll(async () => {
  await emu?.stop();
});

interface Person {
  id: string;
  email: string;
  token: string;
}

/** A fresh subscriber with a unique address and the given subscriptions ({slug: status}). */
async function person(
  subscriptions: Record<string, string> = {},
  options: { status?: 'blocklisted'; name?: string; referredBy?: Person } = {},
): Promise<Person> {
  const email = `prefs-${randomUUID()}@example.com`;
  const [row] = await sql<{ id: string }>(
    emu,
    `insert into public.subscribers (email, name, attributes, referred_by)
     values ($1, $2, '{"plan": "pro"}', $3) returning id`,
    [email, options.name ?? 'Test Person', options.referredBy?.id ?? null],
  );
  for (const [slug, state] of Object.entries(subscriptions)) {
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select $1, id, $3 from public.lists where slug = $2`,
      [row!.id, slug, state],
    );
  }
  if (options.status === 'blocklisted') {
    await sql(emu, `update public.subscribers set status = 'blocklisted' where id = $1`, [row!.id]);
  }
  return { id: row!.id, email, token: signTestToken({ p: 'preferences', s: row!.id }) };
}

async function statuses(who: Person): Promise<Record<string, string>> {
  const rows = await sql<{ slug: string; status: string }>(
    emu,
    `select l.slug, s.status from public.subscriptions s join public.lists l on l.id = s.list_id
      where s.subscriber_id = $1`,
    [who.id],
  );
  return Object.fromEntries(rows.map((r) => [r.slug, r.status]));
}

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
// The seed creates its lists in one statement (one created_at), so the slug breaks the tie.
const PUBLIC_SLUGS = ['early-access', 'newsletter', 'product-updates'];

describe('GET: what the page shows', () => {
  it('answers the address, name and every public list, and changes nothing', async () => {
    const who = await person({ newsletter: 'confirmed', 'early-access': 'pending' });
    const before = await snapshot(emu);
    const res = await callFunction(emu, 'preferences', { query: { token: who.token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body).toEqual({
      email: who.email,
      name: 'Test Person',
      lists: [
        {
          slug: 'early-access',
          name: 'Early access waitlist',
          description: 'Be first in line; move up by sharing your link.',
          subscribed: true,
        },
        {
          slug: 'newsletter',
          name: 'The newsletter',
          description: 'The fortnightly letter.',
          subscribed: true,
        },
        {
          slug: 'product-updates',
          name: 'Product updates',
          description: 'A short note when something ships.',
          subscribed: false,
        },
      ],
    });
    expect(await snapshot(emu)).toBe(before);
  });

  it('shows a private list only to a subscriber who is on it', async () => {
    const tester = await person({ 'beta-testers': 'unsubscribed' });
    const res = await callFunction(emu, 'preferences', { query: { token: tester.token } });
    const slugs = res.body.lists.map((l: { slug: string }) => l.slug);
    expect(slugs).toEqual([...PUBLIC_SLUGS, 'beta-testers']);
    expect(res.body.lists[3].subscribed).toBe(false);
    const other = await person();
    const plain = await callFunction(emu, 'preferences', { query: { token: other.token } });
    expect(plain.body.lists.map((l: { slug: string }) => l.slug)).toEqual(PUBLIC_SLUGS);
  });
});

describe('POST: saving the form', () => {
  it('changes name and lists in one go and writes one event per list change', async () => {
    const who = await person({ newsletter: 'confirmed', 'early-access': 'pending' });
    const res = await post({
      token: who.token,
      name: '  Ada Byron ',
      lists: { newsletter: false, 'product-updates': true, 'early-access': true },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Ada Byron');
    expect(
      Object.fromEntries(
        res.body.lists.map((l: { slug: string; subscribed: boolean }) => [l.slug, l.subscribed]),
      ),
    ).toEqual({ newsletter: false, 'product-updates': true, 'early-access': true });
    // Switching a list on is a confirmation: the link proves the mailbox.
    expect(await statuses(who)).toEqual({
      newsletter: 'unsubscribed',
      'product-updates': 'confirmed',
      'early-access': 'confirmed',
    });
    const [row] = await sql<{ name: string }>(
      emu,
      'select name from public.subscribers where id = $1',
      [who.id],
    );
    expect(row!.name).toBe('Ada Byron');
    // No event type exists for a name change, so only the subscriptions write history.
    expect(await eventsOf(who)).toEqual([
      { type: 'confirmed', list: 'early-access', source: 'preferences' },
      { type: 'unsubscribed', list: 'newsletter', source: 'preferences' },
      { type: 'subscribed', list: 'product-updates', source: 'preferences' },
      { type: 'confirmed', list: 'product-updates', source: 'preferences' },
    ]);
  });

  it('switches an unsubscribed list back on (resubscribed) and leaves unchanged lists alone', async () => {
    const who = await person({ newsletter: 'unsubscribed', 'product-updates': 'confirmed' });
    const res = await post({
      token: who.token,
      lists: { newsletter: true, 'product-updates': true, 'early-access': false },
    });
    expect(res.status).toBe(200);
    expect(await statuses(who)).toEqual({
      newsletter: 'confirmed',
      'product-updates': 'confirmed',
    });
    expect(await eventsOf(who)).toEqual([
      { type: 'resubscribed', list: 'newsletter', source: 'preferences' },
    ]);
  });

  it('lets a subscriber on a private list switch it back on', async () => {
    const tester = await person({ 'beta-testers': 'unsubscribed' });
    const res = await post({ token: tester.token, lists: { 'beta-testers': true } });
    expect(res.status).toBe(200);
    expect(await statuses(tester)).toEqual({ 'beta-testers': 'confirmed' });
  });

  it('refuses an invalid name with 422 naming the field, and changes nothing', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const before = await snapshot(emu);
    for (const name of ['x'.repeat(101), 'Ada\u0007', 'Ada\u0085Byron', 42]) {
      const res = await post({ token: who.token, name, lists: { newsletter: false } });
      expect(res.status, String(name)).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'invalid_input', field: 'name' });
    }
    expect(await snapshot(emu)).toBe(before);
  });

  it('refuses lists that are not {slug: boolean} with 422', async () => {
    const who = await person({ newsletter: 'confirmed' });
    for (const lists of [['newsletter'], { newsletter: 'no' }, 'newsletter']) {
      const res = await post({ token: who.token, lists });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'invalid_input', field: 'lists' });
    }
  });

  it('answers 404 list_not_found for an unknown slug or a private list, applying nothing', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const before = await snapshot(emu);
    for (const lists of [
      { newsletter: false, 'no-such-list': true },
      { newsletter: false, 'beta-testers': true },
      { 'beta-testers': false },
    ]) {
      const res = await post({ token: who.token, name: 'Changed', lists });
      expect(res.status, JSON.stringify(lists)).toBe(404);
      expect(res.body.error).toEqual({
        code: 'list_not_found',
        message: 'That list does not exist.',
      });
    }
    expect(await snapshot(emu)).toBe(before);
  });

  it('refuses to switch a list on for a blocklisted address with 409', async () => {
    const who = await person({ newsletter: 'confirmed' }, { status: 'blocklisted' });
    const before = await snapshot(emu);
    const res = await post({ token: who.token, lists: { newsletter: true } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
    expect(res.body.error.message).toMatch(/blocked/);
    expect(await snapshot(emu)).toBe(before);
    // Switching off and renaming still work.
    const off = await post({ token: who.token, name: 'Still me', lists: { newsletter: false } });
    expect(off.status).toBe(200);
    expect(off.body.name).toBe('Still me');
  });

  it('unsubscribe_all unsubscribes from every list and answers the page shape', async () => {
    const who = await person({ newsletter: 'confirmed', 'early-access': 'pending' });
    const res = await post({ token: who.token, action: 'unsubscribe_all' });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(who.email);
    expect(res.body.lists.every((l: { subscribed: boolean }) => !l.subscribed)).toBe(true);
    expect(await statuses(who)).toEqual({
      newsletter: 'unsubscribed',
      'early-access': 'unsubscribed',
    });
    expect(await eventsOf(who)).toEqual([
      { type: 'unsubscribed', list: 'early-access', source: 'preferences' },
      { type: 'unsubscribed', list: 'newsletter', source: 'preferences' },
    ]);
  });
});

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
    // Nothing identifies the referrer or the person this subscriber referred.
    const text = JSON.stringify(res.body);
    for (const other of [referrer, referred]) {
      expect(text).not.toContain(other.email);
      expect(text).not.toContain(other.id);
    }
    expect(text).not.toContain('ada@example.com');
    expect(await eventsOf(who)).toEqual([{ type: 'exported', list: null, source: 'preferences' }]);
  });
});

describe('POST action delete', () => {
  it('erases every row holding the address and leaves exactly one anonymous deleted event', async () => {
    const who = await person({ newsletter: 'confirmed', 'early-access': 'confirmed' });
    const referred = await person({ 'early-access': 'pending' }, { referredBy: who });
    await post({ token: who.token, action: 'export' });
    await sql(
      emu,
      `insert into private.rate_limits (bucket, key, window_start, hits) values ('subscribe-email', $1, now(), 1)`,
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
