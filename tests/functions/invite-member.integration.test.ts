// invite-member (SPEC §6, §7) through HTTP against the emulator, as the owner, an admin, a signed-in
// stranger and an anonymous caller: new addresses get Auth's invite, existing accounts a notice.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, clientFor, snapshot, sql, startFunctionsEmulator, waitForMail } from './kit';

let emu: RunningEmulator;
const unique = (who: string) =>
  `${who}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;

/** Creates a confirmed auth user, optionally on the team, and answers its id and access token. */
async function user(
  email: string,
  role?: string,
): Promise<{ id: string; email: string; token: string }> {
  const admin = clientFor(emu, 'service');
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  if (role) {
    await sql(emu, 'insert into public.members (user_id, email, role) values ($1, $2, $3)', [
      id,
      email,
      role,
    ]);
  }
  const signedIn = await clientFor(emu, 'publishable').auth.signInWithPassword({ email, password });
  if (signedIn.error) throw signedIn.error;
  return { id, email, token: signedIn.data.session!.access_token };
}

type Account = Awaited<ReturnType<typeof user>>;
let owner: Account;
let admin: Account;
let stranger: Account;
beforeAll(async () => {
  emu = await startFunctionsEmulator();
  owner = await user(unique('owner'), 'owner');
  admin = await user(unique('admin'), 'admin');
  stranger = await user(unique('stranger'));
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const invite = (bearer: string | undefined, body: unknown) =>
  callFunction(emu, 'invite-member', { body, ...(bearer ? { bearer } : {}) });

const memberRow = async (email: string) =>
  (
    await sql<{ user_id: string; role: string; invited_by: string | null }>(
      emu,
      'select user_id, role, invited_by from public.members where email = $1',
      [email],
    )
  )[0];

describe('invite-member as the owner', () => {
  it('invites a new address through Auth and adds the member row', async () => {
    const email = unique('new');
    const res = await invite(owner.token, { email: email.toUpperCase(), role: 'editor' });
    expect(res.status).toBe(200);
    const [authUser] = await sql<{ id: string; invited_at: string | null }>(
      emu,
      'select id, invited_at from auth.users where email = $1',
      [email],
    );
    expect(authUser).toBeDefined();
    expect(authUser!.invited_at).not.toBeNull();
    expect(res.body).toEqual({ member: { user_id: authUser!.id, email, role: 'editor' } });
    expect(await memberRow(email)).toEqual({
      user_id: authUser!.id,
      role: 'editor',
      invited_by: owner.id,
    });
    const [mail] = await waitForMail(emu, email);
    expect(mail!.text).toContain('/auth/v1/verify');
    // The invite (through auth-email) names the team, the inviter and the role.
    expect(mail!.subject).toBe(`${owner.email} invited you to the team at The Postbox Letter`);
    expect(mail!.text).toContain('as an editor (writing campaigns and sending tests)');
  });

  it('adds an existing account at once and tells them by email', async () => {
    const email = unique('existing');
    const existing = await user(email);
    const res = await invite(owner.token, { email, role: 'viewer' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member: { user_id: existing.id, email, role: 'viewer' } });
    expect(await memberRow(email)).toMatchObject({ role: 'viewer', invited_by: owner.id });
    const [mail] = await waitForMail(emu, email);
    expect(mail!.subject).toBe('You have been added to the team at The Postbox Letter');
    expect(mail!.text).toContain('http://127.0.0.1:3999/login/');
    // Who added them and as what, in the branded layout the invite uses (accent rule, site name).
    expect(mail!.text).toContain(
      `${owner.email} added you to the team at The Postbox Letter, as a viewer (reading everything, changing nothing).`,
    );
    expect(mail!.html).toMatch(/border-top: ?4px solid #[0-9a-f]{6}/i);
    expect(mail!.html).toContain('Welcome to the team at The Postbox Letter');
  });

  it('invites again an account that never confirmed, since Auth mails it no sign-in link', async () => {
    // Invited once, never accepted, then removed from the team; now invited again.
    const email = unique('unaccepted');
    expect((await invite(owner.token, { email, role: 'viewer' })).status).toBe(200);
    await waitForMail(emu, email, 1);
    await sql(emu, 'delete from public.members where email = $1', [email]);
    const res = await invite(owner.token, { email, role: 'editor' });
    expect(res.status).toBe(200);
    expect(await memberRow(email)).toMatchObject({ role: 'editor', invited_by: owner.id });
    const mails = await waitForMail(emu, email, 2);
    // Auth's invite again (its link confirms the account), not the "added to the team" notice.
    expect(mails[1]!.text).toContain('/auth/v1/verify');
    expect(mails[1]!.subject).not.toContain('added to the team');
    // The second invite names the role it is for now, not the first one's.
    expect(mails[1]!.text).toContain('as an editor (');
    expect(mails[0]!.text).toContain('as a viewer (');
    const accepted = await fetch(/http:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mails[1]!.text)![0], {
      redirect: 'manual',
    });
    expect(new URL(accepted.headers.get('location')!).hash).toContain('access_token=');
  });

  it('refuses an existing member with 409 and changes nothing', async () => {
    const email = unique('member');
    await user(email, 'viewer');
    const before = await snapshot(emu);
    const res = await invite(owner.token, { email, role: 'admin' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
    expect(await snapshot(emu)).toBe(before);
  });

  const bad: [string, () => ReturnType<typeof callFunction>, number, string][] = [
    [
      'malformed email',
      () => invite(owner.token, { email: 'nope', role: 'viewer' }),
      422,
      'invalid_email',
    ],
    [
      'unknown role',
      () => invite(owner.token, { email: unique('x'), role: 'god' }),
      422,
      'invalid_input',
    ],
    ['missing role', () => invite(owner.token, { email: unique('x') }), 422, 'invalid_input'],
    [
      'wrong method',
      () => callFunction(emu, 'invite-member', { method: 'GET', bearer: owner.token }),
      405,
      'method_not_allowed',
    ],
    [
      'wrong content type',
      () =>
        callFunction(emu, 'invite-member', {
          bearer: owner.token,
          rawBody: 'email=x',
          headers: { 'Content-Type': 'text/plain' },
        }),
      422,
      'invalid_input',
    ],
    [
      'invalid JSON',
      () =>
        callFunction(emu, 'invite-member', {
          bearer: owner.token,
          rawBody: '{"email"',
          headers: { 'Content-Type': 'application/json' },
        }),
      422,
      'invalid_input',
    ],
  ];
  it.each(bad)('refuses %s and changes nothing', async (_name, call, status, code) => {
    const before = await snapshot(emu);
    const res = await call();
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(await snapshot(emu)).toBe(before);
  });
});

describe('invite-member as anyone else', () => {
  it('forbids an admin', async () => {
    const email = unique('by-admin');
    const before = await snapshot(emu);
    const res = await invite(admin.token, { email, role: 'viewer' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(await snapshot(emu)).toBe(before);
    expect(await sql(emu, 'select 1 from auth.users where email = $1', [email])).toHaveLength(0);
  });

  it('forbids a signed-in user who is not a member', async () => {
    const before = await snapshot(emu);
    const res = await invite(stranger.token, { email: unique('by-stranger'), role: 'owner' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(await snapshot(emu)).toBe(before);
  });

  it('refuses an anonymous caller: no JWT at the gateway, the anon JWT in the function', async () => {
    const before = await snapshot(emu);
    const none = await invite(undefined, { email: unique('anon'), role: 'viewer' });
    expect(none.status).toBe(401);
    const anon = await invite(emu.keys.anon, { email: unique('anon'), role: 'viewer' });
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('unauthenticated');
    expect(await snapshot(emu)).toBe(before);
  });

  it('answers the CORS preflight without a JWT', async () => {
    const res = await callFunction(emu, 'invite-member', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
