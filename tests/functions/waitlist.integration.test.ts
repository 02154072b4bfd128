// waitlist (SPEC §7, §9) through HTTP against the emulator: places ordered by confirmed referrals,
// then confirmation time; a referral counts once the friend confirms; nobody refers themselves.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  linkIn,
  snapshot,
  sql,
  startFunctionsEmulator,
  TEST_SITE_URL,
  waitForMail,
} from './kit';

let emu: RunningEmulator;
/** A waitlist list of this file's own, so the seed's members do not move the numbers. */
const slug = `wl-${randomBytes(3).toString('hex')}`;
beforeAll(async () => {
  emu = await startFunctionsEmulator({ trustedProxyHops: 1 });
  await sql(
    emu,
    `insert into public.lists (slug, name, optin, waitlist) values ($1, 'Test waitlist', 'double', true)`,
    [slug],
  );
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const address = (who: string) =>
  `${who}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;

const people: Record<string, { email: string; code: string; mails: number }> = {};

async function join(who: string, ref?: string) {
  const email = people[who]?.email ?? address(who);
  const res = await callFunction(emu, 'subscribe', {
    body: { email, lists: [slug], ...(ref ? { ref } : {}) },
    headers: { 'X-Forwarded-For': ip() },
  });
  expect(res.status).toBe(200);
  const [row] = await sql<{ referral_code: string }>(
    emu,
    'select referral_code from public.subscribers where email = $1',
    [email],
  );
  people[who] = { email, code: row!.referral_code, mails: (people[who]?.mails ?? 0) + 1 };
}

async function confirmByMail(who: string) {
  const person = people[who]!;
  const mails = await waitForMail(emu, person.email, person.mails);
  const token = linkIn(mails[person.mails - 1]!, '/confirm/').searchParams.get('token');
  const res = await callFunction(emu, 'confirm', { body: { token } });
  expect(res.status).toBe(200);
  person.mails += 1; // the welcome
}

const standing = (who: string, query: Record<string, string> = {}) =>
  callFunction(emu, 'waitlist', { query: { code: people[who]!.code, ...query } });

/** Everyone's [position, referrals] in one go. */
async function places(...who: string[]) {
  const out: Record<string, [number | null, number]> = {};
  for (const w of who) {
    const res = await standing(w);
    expect(res.status).toBe(200);
    out[w] = [res.body.position, res.body.referrals];
  }
  return out;
}

describe('waitlist positions (SPEC §9)', () => {
  it('orders by confirmation time, counting a referral only once the friend confirms', async () => {
    for (const who of ['a', 'b', 'c']) {
      await join(who);
      await confirmByMail(who);
    }
    const a = await standing('a');
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      list: { slug, name: 'Test waitlist' },
      status: 'confirmed',
      position: 1,
      total: 3,
      referrals: 0,
      code: people.a!.code,
      url: `${TEST_SITE_URL}/?ref=${people.a!.code}&list=${slug}`,
    });
    expect(await places('a', 'b', 'c')).toEqual({ a: [1, 0], b: [2, 0], c: [3, 0] });

    await join('d', people.c!.code);
    const pending = await standing('d');
    expect(pending.body).toMatchObject({
      status: 'pending',
      position: null,
      total: 3,
      referrals: 0,
    });
    expect(await places('c')).toEqual({ c: [3, 0] });

    await confirmByMail('d');
    expect(await places('a', 'b', 'c', 'd')).toEqual({
      c: [1, 1],
      a: [2, 0],
      b: [3, 0],
      d: [4, 0],
    });
    expect((await standing('a')).body.total).toBe(4);
  });

  it('ignores a self-referral', async () => {
    await join('b', people.b!.code);
    await join('e');
    await join('e', people.e!.code);
    await confirmByMail('e');
    const [row] = await sql<{ referred_by: string | null }>(
      emu,
      'select referred_by from public.subscribers where email = $1',
      [people.e!.email],
    );
    expect(row!.referred_by).toBeNull();
    expect(await places('b', 'e')).toEqual({ b: [3, 0], e: [5, 0] });
  });

  it('breaks a tie in referrals by confirmation time, and drops a referral that unsubscribes', async () => {
    await join('f', people.a!.code);
    await confirmByMail('f');
    expect(await places('a', 'c', 'b', 'd', 'e', 'f')).toEqual({
      a: [1, 1],
      c: [2, 1],
      b: [3, 0],
      d: [4, 0],
      e: [5, 0],
      f: [6, 0],
    });
    await sql(
      emu,
      `update public.subscriptions set status = 'unsubscribed'
       where subscriber_id = (select id from public.subscribers where email = $1)`,
      [people.f!.email],
    );
    expect(await places('a', 'c')).toEqual({ c: [1, 1], a: [2, 0] });
    expect((await standing('a')).body.total).toBe(5);
    // A member who unsubscribed has no place any more.
    expect((await standing('f')).status).toBe(404);
  });

  it('leaves a blocklisted member out of the ranking', async () => {
    await sql(emu, `update public.subscribers set status = 'blocklisted' where email = $1`, [
      people.a!.email,
    ]);
    expect(await places('c', 'b', 'd', 'e')).toEqual({
      c: [1, 1],
      b: [2, 0],
      d: [3, 0],
      e: [4, 0],
    });
    expect((await standing('a')).status).toBe(404);
  });
});

describe('waitlist: referral counts follow every change', () => {
  it('moves with an admin changing referred_by, and drops when the friend is deleted', async () => {
    // d (confirmed) was referred by c; hand d to e instead, then delete d.
    const id = async (who: string) =>
      (
        await sql<{ id: string }>(emu, 'select id from public.subscribers where email = $1', [
          people[who]!.email,
        ])
      )[0]!.id;
    await sql(emu, 'update public.subscribers set referred_by = $1 where id = $2', [
      await id('e'),
      await id('d'),
    ]);
    expect(await places('c', 'e')).toEqual({ e: [1, 1], c: [3, 0] });
    await sql(emu, 'delete from public.subscribers where id = $1', [await id('d')]);
    expect(await places('c', 'b', 'e')).toEqual({ b: [1, 0], c: [2, 0], e: [3, 0] });
    const [{ stored }] = (await sql<{ stored: number }>(
      emu,
      `select coalesce(sum(referrals), 0)::int as stored from public.subscriptions s
       join public.lists l on l.id = s.list_id where l.slug = $1`,
      [slug],
    )) as [{ stored: number }];
    expect(stored).toBe(0);
  });
});

describe('waitlist: lookups and refusals', () => {
  it('takes the list from the query, and only a waitlist list the code is on', async () => {
    const named = await standing('c', { list: slug });
    expect(named.status).toBe(200);
    expect(named.body.list.slug).toBe(slug);
    const other = await standing('c', { list: 'newsletter' });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
  });

  const cases: [string, () => ReturnType<typeof callFunction>, number, string][] = [
    [
      'unknown code',
      () => callFunction(emu, 'waitlist', { query: { code: 'nosuchcode1' } }),
      404,
      'not_found',
    ],
    ['no code', () => callFunction(emu, 'waitlist'), 404, 'not_found'],
    [
      'malformed code',
      () => callFunction(emu, 'waitlist', { query: { code: "x' or 1=1" } }),
      404,
      'not_found',
    ],
    ['malformed list', () => standing('c', { list: 'Not A Slug' }), 404, 'not_found'],
    [
      'wrong method',
      () => callFunction(emu, 'waitlist', { body: { code: 'x' } }),
      405,
      'method_not_allowed',
    ],
  ];
  it.each(cases)('%s', async (_name, call, status, code) => {
    const before = await snapshot(emu);
    const res = await call();
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await snapshot(emu)).toBe(before);
  });

  it('answers the CORS preflight', async () => {
    expect((await callFunction(emu, 'waitlist', { method: 'OPTIONS' })).status).toBe(204);
  });
});
