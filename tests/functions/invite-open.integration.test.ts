// Open invites (issue 23) with supabase-js and real tokens: an invitee shows as invited (the
// team_sign_ins function, members only) until they first sign in; the owner alone resends and
// revokes; a revoke removes the member row and the never-used Auth account; a used invite is
// neither resent nor revoked.
import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, signedInClient, sql, startFunctionsEmulator, waitForMail } from './kit';

let emu: RunningEmulator;
let owner: SupabaseClient;
let admin: SupabaseClient;
let viewer: SupabaseClient;
let stranger: SupabaseClient;
beforeAll(async () => {
  emu = await startFunctionsEmulator();
  [owner, admin, viewer, stranger] = await Promise.all([
    signedInClient(emu, 'owner'),
    signedInClient(emu, 'admin'),
    signedInClient(emu, 'viewer'),
    signedInClient(emu, null),
  ]);
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const unique = () => `invitee-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;

/** What the function answers (status, body) when `client` calls it with `body`. */
async function call(client: SupabaseClient, body: Record<string, unknown>) {
  const { data, error } = await client.functions.invoke('invite-member', { body });
  if (!error) return { status: 200, body: data };
  const res = (error as { context?: Response }).context;
  return { status: res?.status ?? 0, body: res ? await res.json() : null };
}

async function invited(email: string): Promise<string> {
  const res = await call(owner, { email, role: 'editor' });
  expect(res.status).toBe(200);
  return res.body.member.user_id as string;
}

async function signInState(client: SupabaseClient, userId: string) {
  const { data, error } = await client.rpc('team_sign_ins');
  expect(error).toBeNull();
  return (data as { user_id: string; invited: boolean }[]).find((r) => r.user_id === userId);
}

describe('the invited state', () => {
  it('is true until the first sign-in, for every member to read, and nobody else', async () => {
    const email = unique();
    const id = await invited(email);
    expect(await signInState(owner, id)).toMatchObject({ invited: true });
    expect(await signInState(viewer, id)).toMatchObject({ invited: true });
    // A signed-in stranger gets no rows; the public cannot call it.
    const strangers = await stranger.rpc('team_sign_ins');
    expect(strangers.error).toBeNull();
    expect(strangers.data).toEqual([]);
    const anon = await clientFor(emu, 'publishable').rpc('team_sign_ins');
    expect(anon.error?.code).toBe('42501');

    // The invitee follows the link: signed in, no longer invited.
    const [mail] = await waitForMail(emu, email);
    const link = /http:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail!.text)![0];
    const accepted = await fetch(link, { redirect: 'manual' });
    expect(new URL(accepted.headers.get('location')!).hash).toContain('access_token=');
    expect(await signInState(owner, id)).toMatchObject({ invited: false });
  });
});

describe('resend and revoke', () => {
  it('the owner resends an open invite: a second invite email for the same role', async () => {
    const email = unique();
    const id = await invited(email);
    await waitForMail(emu, email, 1);
    const res = await call(owner, { action: 'resend', user_id: id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member: { user_id: id, email, role: 'editor' } });
    const mails = await waitForMail(emu, email, 2);
    expect(mails[1]!.text).toContain('/auth/v1/verify');
    expect(mails[1]!.text).toContain('as an editor (');
  });

  it('the owner revokes: the member row and the Auth account are gone', async () => {
    const email = unique();
    const id = await invited(email);
    const res = await call(owner, { action: 'revoke', user_id: id });
    expect(res).toEqual({ status: 200, body: { revoked: id } });
    expect(await sql(emu, 'select 1 from public.members where user_id = $1', [id])).toEqual([]);
    expect(await sql(emu, 'select 1 from auth.users where id = $1', [id])).toEqual([]);
    // The old invite link no longer signs anyone in.
    const [mail] = await waitForMail(emu, email);
    const link = /http:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail!.text)![0];
    const followed = await fetch(link, { redirect: 'manual' });
    expect(followed.headers.get('location') ?? '').not.toContain('access_token=');
  });

  it('an admin, a viewer and a stranger may do neither; nothing changes', async () => {
    const email = unique();
    const id = await invited(email);
    for (const client of [admin, viewer, stranger]) {
      for (const action of ['resend', 'revoke']) {
        const res = await call(client, { action, user_id: id });
        expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
      }
    }
    expect(await sql(emu, 'select 1 from auth.users where id = $1', [id])).toHaveLength(1);
    expect(await sql(emu, 'select 1 from public.members where user_id = $1', [id])).toHaveLength(1);
  });

  it('a member who signed in is neither resent nor revoked (409); an unknown id is 404', async () => {
    const email = unique();
    const id = await invited(email);
    await sql(emu, 'update auth.users set last_sign_in_at = now() where id = $1', [id]);
    for (const action of ['resend', 'revoke']) {
      const res = await call(owner, { action, user_id: id });
      expect([res.status, res.body.error.code]).toEqual([409, 'conflict']);
    }
    expect(await sql(emu, 'select 1 from auth.users where id = $1', [id])).toHaveLength(1);
    const unknown = await call(owner, {
      action: 'revoke',
      user_id: '00000000-0000-4000-8000-000000000000',
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    const bad = await call(owner, { action: 'revoke', user_id: 'x' });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'invalid_input']);
    const other = await call(owner, { action: 'delete', user_id: id });
    expect([other.status, other.body.error.code]).toEqual([422, 'invalid_input']);
  });
});
