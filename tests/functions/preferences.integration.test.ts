// The `preferences` function over HTTP (SPEC §7): the page, saving name and lists, and unsubscribe
// from all, against the real functions and migrations (data export and delete: preferences-data).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, snapshot, sql, startFunctionsEmulator } from './kit';
import { preferencesPerson, type Person } from './preferences-kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
});
afterAll(async () => {
  await emu?.stop();
});

const person = (
  subscriptions?: Record<string, string>,
  options?: Parameters<typeof preferencesPerson>[2],
): Promise<Person> => preferencesPerson(emu, subscriptions, options);

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
    // Each subscription change, and the name change as one 'updated' event.
    expect(await eventsOf(who)).toEqual([
      { type: 'confirmed', list: 'early-access', source: 'preferences' },
      { type: 'unsubscribed', list: 'newsletter', source: 'preferences' },
      { type: 'subscribed', list: 'product-updates', source: 'preferences' },
      { type: 'confirmed', list: 'product-updates', source: 'preferences' },
      { type: 'updated', list: null, source: 'preferences' },
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
    for (const name of ['x'.repeat(101), 'Ada\u0007', 'Ada\u0085Byron', 'Ada \ud800', 42]) {
      const res = await post({ token: who.token, name, lists: { newsletter: false } });
      expect(res.status, String(name)).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'invalid_input', field: 'name' });
    }
    expect(await snapshot(emu)).toBe(before);
  });

  it('refuses lists that are not {slug: boolean} with 422', async () => {
    const who = await person({ newsletter: 'confirmed' });
    for (const lists of [['newsletter'], { newsletter: 'no' }, 'newsletter', { '\udfff': true }]) {
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
