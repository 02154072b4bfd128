// Team sign-up is closed and the owner address claims ownership once (SPEC §6), through HTTP
// against the emulator with the project's config: nobody signs themselves up, by password or by
// magic link; claim-owner's `prepare` makes the owner's account (and only theirs) before its
// first sign-in; the owner's first magic link makes them owner; after that the team decides, so a
// demoted or removed owner address stays demoted or removed. Any other account is forbidden.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  clientFor,
  snapshot,
  sql,
  startFunctionsEmulator,
  TEST_OWNER_EMAIL,
  waitForMail,
} from './kit';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFunctionsEmulator();
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const random = () => randomBytes(4).toString('hex');

async function signedIn(email: string): Promise<{ id: string; token: string }> {
  const password = `pw-${random()}`;
  const created = await clientFor(emu, 'service').auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (created.error) throw created.error;
  const session = await clientFor(emu, 'publishable').auth.signInWithPassword({ email, password });
  if (session.error) throw session.error;
  return { id: created.data.user!.id, token: session.data.session!.access_token };
}

const claim = (bearer?: string, body: unknown = {}) =>
  callFunction(emu, 'claim-owner', { body, ...(bearer ? { bearer } : {}) });

const prepare = (email: unknown) => claim(undefined, { action: 'prepare', email });

const accounts = (email: string) =>
  sql<{ id: string; confirmed: boolean; password: boolean }>(
    emu,
    `select id, email_confirmed_at is not null as confirmed,
            coalesce(encrypted_password, '') <> '' as password
     from auth.users where lower(email) = lower($1)`,
    [email],
  );

/** Opens the sign-in link Auth mailed (implicit flow, as a non-browser client asks) for a session. */
async function tokenFromMailedLink(email: string, count: number): Promise<string> {
  const mails = await waitForMail(emu, email, count);
  const link = /http:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mails[count - 1]!.text)?.[0];
  if (!link) throw new Error(`no sign-in link in:\n${mails[count - 1]!.text}`);
  const response = await fetch(link, { redirect: 'manual' });
  const location = response.headers.get('location') ?? '';
  const token = new URLSearchParams(new URL(location).hash.slice(1)).get('access_token');
  if (!token) throw new Error(`no session on ${location}`);
  return token;
}

describe('closed sign-ups', () => {
  it('lets nobody sign themselves up, by password or by magic link', async () => {
    const email = `self-${random()}@example.com`;
    const client = clientFor(emu, 'publishable');
    const password = await client.auth.signUp({ email, password: 'correct-horse-battery' });
    expect(password.error?.code).toBe('signup_disabled');
    const link = await client.auth.signInWithOtp({ email });
    expect(link.error?.code).toBe('signup_disabled');
    const existingOnly = await client.auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false },
    });
    expect(existingOnly.error?.code).toBe('otp_disabled');
    expect(await accounts(email)).toEqual([]);
  });

  it('prepares an account for the owner address only, and answers every address alike', async () => {
    const other = `someone-${random()}@example.com`;
    const forOther = await prepare(other);
    expect(forOther.status).toBe(200);
    expect(forOther.body).toEqual({ prepared: true });
    expect(forOther.headers.get('access-control-allow-origin')).toBe('*');
    expect(await accounts(other)).toEqual([]);

    const before = await snapshot(emu);
    const forOwner = await prepare(TEST_OWNER_EMAIL.toUpperCase());
    expect(forOwner.text).toBe(forOther.text);
    const [account] = await accounts(TEST_OWNER_EMAIL);
    // Without a password, only a link mailed to the owner's inbox signs in to it. Confirmed:
    // with sign-ups closed, Auth sends no link to an unconfirmed account.
    expect(account).toMatchObject({ confirmed: true, password: false });
    // Asked again (two tabs, a second click): still one account. No team data changed.
    expect((await prepare(TEST_OWNER_EMAIL)).status).toBe(200);
    expect(await accounts(TEST_OWNER_EMAIL)).toEqual([account]);
    expect(await snapshot(emu)).toBe(before);
  });

  it('makes the owner owner through their first magic link, and a repeated claim changes nothing', async () => {
    const sent = await clientFor(emu, 'publishable').auth.signInWithOtp({
      email: TEST_OWNER_EMAIL,
      options: { shouldCreateUser: false },
    });
    expect(sent.error).toBeNull();
    const token = await tokenFromMailedLink(TEST_OWNER_EMAIL, 1);
    const [account] = await accounts(TEST_OWNER_EMAIL);
    expect(account!.confirmed).toBe(true);

    const res = await claim(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      member: { user_id: account!.id, email: TEST_OWNER_EMAIL, role: 'owner' },
    });
    const before = await snapshot(emu);
    const again = await callFunction(emu, 'claim-owner', { method: 'POST', bearer: token });
    expect(again.status).toBe(200);
    expect(again.text).toBe(res.text);
    expect(await snapshot(emu)).toBe(before);

    // Unconfirmed again (e.g. the address changed and is not verified yet): refused.
    await sql(emu, 'update auth.users set email_confirmed_at = null where id = $1', [account!.id]);
    const unconfirmed = await claim(token);
    expect(unconfirmed.status).toBe(403);
    expect(await snapshot(emu)).toBe(before);
    await sql(emu, 'update auth.users set email_confirmed_at = now() where id = $1', [account!.id]);
  });

  it('leaves the owner address demoted or removed once the team has decided', async () => {
    const [account] = await accounts(TEST_OWNER_EMAIL);
    const { token } = await signInAs(account!.id);
    // A second owner, so the team keeps one whatever happens to the first.
    const second = await signedIn(`second-owner-${random()}@example.com`);
    await sql(emu, "insert into public.members (user_id, email, role) values ($1, $2, 'owner')", [
      second.id,
      `second-owner@example.com`,
    ]);
    // The second owner demotes the owner address to viewer: its next claim does not undo that.
    await sql(emu, "update public.members set role = 'viewer' where user_id = $1", [account!.id]);
    const demoted = await claim(token);
    expect(demoted.status).toBe(403);
    expect(demoted.body.error).toEqual({
      code: 'forbidden',
      message: 'You do not have permission to do that.',
    });
    const role = () =>
      sql(emu, 'select role from public.members where user_id = $1', [account!.id]);
    expect(await role()).toEqual([{ role: 'viewer' }]);
    // Removed from the team: it stays out.
    await sql(emu, 'delete from public.members where user_id = $1', [account!.id]);
    expect((await claim(token)).status).toBe(403);
    expect(await role()).toEqual([]);
  });
});

/** A session for an existing account: a password set by the service role, then a sign-in. */
async function signInAs(userId: string): Promise<{ token: string }> {
  const password = `pw-${random()}`;
  const updated = await clientFor(emu, 'service').auth.admin.updateUserById(userId, { password });
  if (updated.error) throw updated.error;
  const session = await clientFor(emu, 'publishable').auth.signInWithPassword({
    email: updated.data.user!.email!,
    password,
  });
  if (session.error) throw session.error;
  return { token: session.data.session!.access_token };
}

describe('claim-owner refusals', () => {
  it('refuses another address with 403 and changes nothing', async () => {
    const other = await signedIn(`someone-${random()}@example.com`);
    const before = await snapshot(emu);
    const res = await claim(other.token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(await snapshot(emu)).toBe(before);
  });

  it('answers anonymous callers and bad requests with the catalogue, with CORS', async () => {
    const before = await snapshot(emu);
    const none = await claim();
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('unauthenticated');
    expect(none.headers.get('access-control-allow-origin')).toBe('*');
    const anon = await claim(emu.keys.anon);
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('unauthenticated');
    const garbage = await claim('not-a-jwt');
    expect(garbage.status).toBe(401);
    expect(garbage.body.error.code).toBe('unauthenticated');
    const other = await signedIn(`x-${random()}@example.com`);
    const get = await callFunction(emu, 'claim-owner', { method: 'GET', bearer: other.token });
    expect(get.status).toBe(405);
    const json = await callFunction(emu, 'claim-owner', {
      bearer: other.token,
      rawBody: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(json.status).toBe(422);
    expect(json.body.error.code).toBe('invalid_input');
    const badEmail = await prepare('not-an-address');
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.error.code).toBe('invalid_email');
    const badAction = await claim(undefined, { action: 'promote' });
    expect(badAction.status).toBe(422);
    expect(badAction.body.error.code).toBe('invalid_input');
    expect(await snapshot(emu)).toBe(before);
    expect((await callFunction(emu, 'claim-owner', { method: 'OPTIONS' })).status).toBe(204);
  });
});
