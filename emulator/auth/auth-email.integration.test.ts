// Auth sign-up with email confirmations on: confirmation links, redirects, triggers, REST with RLS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  client,
  CONFIRMATIONS_CONFIG,
  fragmentOf,
  linkIn,
  mailFor,
  mailCount,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

// A migration as an app would write it: profiles filled by a trigger on auth.users, readable by
// their owner through REST; a second trigger rejects some sign-ups.
const MIGRATION = `
create table public.profiles (id uuid primary key references auth.users (id) on delete cascade, full_name text);
alter table public.profiles enable row level security;
create policy "Users read their own profile" on public.profiles for select to authenticated
  using ((select auth.uid()) = id);
grant select on public.profiles to authenticated;

create function public.handle_new_user() returns trigger language plpgsql security definer
set search_path = '' as $$
begin
  if new.email like 'reject-%' then
    raise exception 'sign-ups from this address are refused';
  end if;
  insert into public.profiles (id, full_name) values (new.id, new.raw_user_meta_data ->> 'full_name');
  return new;
end $$;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();
`;

let emu: RunningEmulator & { cleanupDir(): Promise<void> };

beforeAll(async () => {
  emu = await startWithConfig(CONFIRMATIONS_CONFIG, {
    'migrations/20240101000000_profiles.sql': MIGRATION,
  });
});
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

describe('sign-up with confirmations', () => {
  it('returns a user, mails a link, and the link signs in with a 303 fragment', async () => {
    const sb = client(emu, emu.keys.anon);
    const email = uniqueEmail('confirm');
    const { data, error } = await sb.auth.signUp({
      email,
      password: 'secret123',
      options: { data: { full_name: 'Grace' }, emailRedirectTo: 'http://127.0.0.1:3000/welcome' },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user!.email_confirmed_at).toBeUndefined();
    expect(data.user!.confirmation_sent_at).toBeTruthy();

    const login = await client(emu, emu.keys.anon).auth.signInWithPassword({
      email,
      password: 'secret123',
    });
    expect(login.error!.code).toBe('email_not_confirmed');

    const mail = await mailFor(emu, email);
    expect(mail.subject).toBe('Confirm Your Signup');
    expect(mail.from[0]).toEqual({ address: 'noreply@postbox.local', name: 'Postbox' });
    const link = linkIn(mail);
    expect(link).toMatch(
      new RegExp(`^${emu.url}/auth/v1/verify\\?token=[0-9a-f]{56}&type=signup&`),
    );

    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location.startsWith('http://127.0.0.1:3000/welcome#access_token=')).toBe(true);
    const params = fragmentOf(location);
    expect([...params.keys()]).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'refresh_token',
      'sb',
      'token_type',
      'type',
    ]);
    expect(params.get('expires_in')).toBe('3600');
    expect(params.get('token_type')).toBe('bearer');
    expect(params.get('type')).toBe('signup');
    const user = await authFetch(emu, '/user', { token: params.get('access_token')! });
    expect(user.status).toBe(200);
    expect(
      ((await user.json()) as { email_confirmed_at?: string }).email_confirmed_at,
    ).toBeTruthy();

    // The trigger from the migration ran on sign-up, and RLS lets the owner read the row.
    const owner = client(emu, emu.keys.anon);
    await owner.auth.setSession({
      access_token: params.get('access_token')!,
      refresh_token: params.get('refresh_token')!,
    });
    const profiles = await owner.from('profiles').select('id, full_name');
    expect(profiles.error).toBeNull();
    expect(profiles.data).toEqual([{ id: data.user!.id, full_name: 'Grace' }]);

    // Links are single-use: the second visit redirects with the error in the fragment.
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(303);
    const errorLocation = again.headers.get('location')!;
    expect(errorLocation.startsWith('http://127.0.0.1:3000/welcome#error=access_denied&')).toBe(
      true,
    );
    const err = fragmentOf(errorLocation);
    expect([...err.keys()]).toEqual(['error', 'error_code', 'error_description', 'sb']);
    expect(err.get('error')).toBe('access_denied');
    expect(err.get('error_code')).toBe('otp_expired');
    expect(err.get('error_description')).toBe('Email link is invalid or has expired');
  });

  it('a confirmed address signing up again gets an obfuscated user and no email', async () => {
    const email = uniqueEmail('again');
    const admin = client(emu, emu.keys.secret);
    await admin.auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const { data, error } = await client(emu, emu.keys.anon).auth.signUp({
      email,
      password: 'other-pass',
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user!.identities).toEqual([]);
    expect(await mailCount(emu, email)).toBe(0);
  });

  it('a failing trigger aborts sign-up with 500 "Database error saving new user"', async () => {
    const res = await authFetch(emu, '/signup', {
      method: 'POST',
      body: { email: uniqueEmail('reject'), password: 'secret123' },
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: 'unexpected_failure',
      message: 'Database error saving new user',
    });
  });

  it('redirect_to outside the allow-list falls back to the site URL; globs are honoured', async () => {
    const sb = client(emu, emu.keys.anon);
    const evil = uniqueEmail('evil');
    await sb.auth.signUp({
      email: evil,
      password: 'secret123',
      options: { emailRedirectTo: 'https://evil.example.org/steal' },
    });
    const res = await fetch(linkIn(await mailFor(emu, evil)), { redirect: 'manual' });
    expect(res.headers.get('location')!.startsWith('http://127.0.0.1:3000#access_token=')).toBe(
      true,
    );

    const good = uniqueEmail('good');
    await sb.auth.signUp({
      email: good,
      password: 'secret123',
      options: { emailRedirectTo: 'https://app.example.com/deep/path' },
    });
    const ok = await fetch(linkIn(await mailFor(emu, good)), { redirect: 'manual' });
    expect(ok.headers.get('location')!.startsWith('https://app.example.com/deep/path#')).toBe(true);
  });
});
