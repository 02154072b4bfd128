// Auth with email confirmations on: confirmation, OTP, magic links, PKCE, recovery, triggers, REST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  client,
  codeIn,
  decodeJwt,
  mailFor,
  linkIn,
  mailCount,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

const CONFIG = `
[auth]
site_url = "http://127.0.0.1:3000"
additional_redirect_urls = ["https://app.example.com/**"]
enable_anonymous_sign_ins = true
refresh_token_reuse_interval = 1

[auth.email]
enable_confirmations = true
`;

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
  emu = await startWithConfig(CONFIG, {
    'supabase/migrations/20240101000000_profiles.sql': MIGRATION,
  });
});
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

function fragmentOf(location: string): URLSearchParams {
  return new URLSearchParams(location.split('#')[1] ?? '');
}

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

describe('one-time passwords and magic links', () => {
  it('signInWithOtp mails a code that verifyOtp accepts', async () => {
    const email = uniqueEmail('otp');
    const sb = client(emu, emu.keys.publishable);
    const sent = await sb.auth.signInWithOtp({ email, options: { data: { full_name: 'Otto' } } });
    expect(sent.error).toBeNull();
    const code = codeIn(await mailFor(emu, email));
    expect(code).toMatch(/^\d{6}$/);
    const { data, error } = await sb.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(email);
    expect(data.session!.user.email_confirmed_at).toBeTruthy();
    const amr = decodeJwt(data.session!.access_token).amr as Array<{ method: string }>;
    expect(amr[0]!.method).toBe('otp');

    const wrong = await sb.auth.verifyOtp({ email, token: '000000', type: 'email' });
    expect(wrong.error!.status).toBe(403);
    expect(wrong.error!.code).toBe('otp_expired');
  });

  it('a confirmed user gets a magic link that redirects with type=magiclink', async () => {
    const email = uniqueEmail('magic');
    await client(emu, emu.keys.secret).auth.admin.createUser({ email, email_confirm: true });
    await client(emu, emu.keys.anon).auth.signInWithOtp({
      email,
      options: { emailRedirectTo: 'http://127.0.0.1:3000/in', shouldCreateUser: false },
    });
    const mail = await mailFor(emu, email);
    expect(mail.subject).toBe('Your Magic Link');
    const res = await fetch(linkIn(mail), { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location.startsWith('http://127.0.0.1:3000/in#')).toBe(true);
    expect(fragmentOf(location).get('type')).toBe('magiclink');
  });

  it('shouldCreateUser:false for an unknown address → 422 otp_disabled', async () => {
    const { error } = await client(emu, emu.keys.anon).auth.signInWithOtp({
      email: uniqueEmail('nouser'),
      options: { shouldCreateUser: false },
    });
    expect(error!.status).toBe(422);
    expect(error!.code).toBe('otp_disabled');
  });

  it('PKCE: the link redirects with ?code= and exchangeCodeForSession signs in', async () => {
    const email = uniqueEmail('pkce');
    const sb = client(emu, emu.keys.anon, 'pkce');
    await sb.auth.signInWithOtp({
      email,
      options: { emailRedirectTo: 'http://127.0.0.1:3000/cb' },
    });
    const link = linkIn(await mailFor(emu, email));
    expect(new URL(link).searchParams.get('token')!.startsWith('pkce_')).toBe(true);
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://127.0.0.1:3000/cb');
    const code = location.searchParams.get('code')!;
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const { data, error } = await sb.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(email);

    const reused = await authFetch(emu, '/token?grant_type=pkce', {
      method: 'POST',
      body: { auth_code: code, code_verifier: 'x'.repeat(43) },
    });
    expect(reused.status).toBe(404);
    expect(((await reused.json()) as { code: string }).code).toBe('flow_state_not_found');
  });

  it('PKCE: sign-up confirmation and password recovery links also hand out codes', async () => {
    const email = uniqueEmail('pkce-signup');
    const sb = client(emu, emu.keys.publishable, 'pkce');
    await sb.auth.signUp({ email, password: 'secret123' });
    const signupLink = linkIn(await mailFor(emu, email));
    expect(new URL(signupLink).searchParams.get('type')).toBe('signup');
    const first = await fetch(signupLink, { redirect: 'manual' });
    const code = new URL(first.headers.get('location')!).searchParams.get('code')!;
    const signedUp = await sb.auth.exchangeCodeForSession(code);
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.user!.email_confirmed_at).toBeTruthy();
    const amr = decodeJwt(signedUp.data.session!.access_token).amr as Array<{ method: string }>;
    expect(amr[0]!.method).toBe('email/signup');

    const other = client(emu, emu.keys.publishable, 'pkce');
    await other.auth.resetPasswordForEmail(email, { redirectTo: 'http://127.0.0.1:3000/reset' });
    const reset = await mailFor(emu, email, 2);
    expect(reset.subject).toBe('Reset Your Password');
    const res = await fetch(linkIn(reset), { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://127.0.0.1:3000/reset');
    const recovered = await other.auth.exchangeCodeForSession(location.searchParams.get('code')!);
    expect(recovered.error).toBeNull();
    const method = (
      decodeJwt(recovered.data.session!.access_token).amr as Array<{ method: string }>
    )[0]!.method;
    expect(method).toBe('recovery');
  });

  it('PKCE: a wrong verifier → 400 bad_code_verifier', async () => {
    const email = uniqueEmail('pkcebad');
    const sb = client(emu, emu.keys.anon, 'pkce');
    await sb.auth.signInWithOtp({ email });
    const res = await fetch(linkIn(await mailFor(emu, email)), { redirect: 'manual' });
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const bad = await authFetch(emu, '/token?grant_type=pkce', {
      method: 'POST',
      body: { auth_code: code, code_verifier: 'y'.repeat(43) },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('bad_code_verifier');
  });
});

describe('recovery, resend and anonymous users', () => {
  it('resetPasswordForEmail → token_hash verify → updateUser → new password works', async () => {
    const email = uniqueEmail('reset');
    await client(emu, emu.keys.secret).auth.admin.createUser({
      email,
      password: 'old-secret',
      email_confirm: true,
    });
    const sb = client(emu, emu.keys.anon);
    const sent = await sb.auth.resetPasswordForEmail(email, {
      redirectTo: 'http://127.0.0.1:3000/reset',
    });
    expect(sent.error).toBeNull();
    const mail = await mailFor(emu, email);
    expect(mail.subject).toBe('Reset Your Password');
    const link = new URL(linkIn(mail));
    expect(link.searchParams.get('type')).toBe('recovery');
    const verified = await sb.auth.verifyOtp({
      token_hash: link.searchParams.get('token')!,
      type: 'recovery',
    });
    expect(verified.error).toBeNull();
    expect((await sb.auth.updateUser({ password: 'new-secret' })).error).toBeNull();
    const login = await client(emu, emu.keys.anon).auth.signInWithPassword({
      email,
      password: 'new-secret',
    });
    expect(login.error).toBeNull();

    // Unknown addresses get the same answer and no mail.
    const unknown = uniqueEmail('ghost');
    expect((await sb.auth.resetPasswordForEmail(unknown)).error).toBeNull();
    expect(await mailCount(emu, unknown)).toBe(0);
  });

  it('resend sends another confirmation for an unconfirmed sign-up', async () => {
    const email = uniqueEmail('resend');
    const sb = client(emu, emu.keys.anon);
    await sb.auth.signUp({ email, password: 'secret123' });
    await mailFor(emu, email);
    const { error } = await sb.auth.resend({ type: 'signup', email });
    expect(error).toBeNull();
    for (let i = 0; i < 30 && (await mailCount(emu, email)) < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await mailCount(emu, email)).toBe(2);
  });

  it('signInAnonymously when enabled', async () => {
    const { data, error } = await client(emu, emu.keys.anon).auth.signInAnonymously({
      options: { data: { theme: 'dark' } },
    });
    expect(error).toBeNull();
    expect(data.user!.is_anonymous).toBe(true);
    const claims = decodeJwt(data.session!.access_token);
    expect(claims.is_anonymous).toBe(true);
    expect((claims.amr as Array<{ method: string }>)[0]!.method).toBe('anonymous');
  });

  it('updateUser({email}) mails the new address; the link applies the change', async () => {
    const email = uniqueEmail('change-from');
    const next = uniqueEmail('change-to');
    await client(emu, emu.keys.secret).auth.admin.createUser({
      email,
      password: 'secret123',
      email_confirm: true,
    });
    const sb = client(emu, emu.keys.anon);
    await sb.auth.signInWithPassword({ email, password: 'secret123' });
    const { data, error } = await sb.auth.updateUser(
      { email: next },
      { emailRedirectTo: 'http://127.0.0.1:3000/changed' },
    );
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.new_email).toBe(next);
    const mail = await mailFor(emu, next);
    expect(mail.subject).toBe('Confirm Email Change');
    const res = await fetch(linkIn(mail), { redirect: 'manual' });
    const location = res.headers.get('location')!;
    expect(location.startsWith('http://127.0.0.1:3000/changed#access_token=')).toBe(true);
    expect(fragmentOf(location).get('type')).toBe('email_change');
    const user = await sb.auth.getUser();
    expect(user.data.user!.email).toBe(next);
    expect(user.data.user!.identities![0]!.identity_data!.email).toBe(next);

    const appMeta = await authFetch(emu, '/user', {
      method: 'PUT',
      token: (await sb.auth.getSession()).data.session!.access_token,
      body: { app_metadata: { role: 'admin' } },
    });
    expect(appMeta.status).toBe(403);
    expect(((await appMeta.json()) as { code: string }).code).toBe('not_admin');
  });

  it('an anonymous user becomes permanent by confirming an email with the OTP', async () => {
    const sb = client(emu, emu.keys.anon);
    await sb.auth.signInAnonymously();
    const noEmail = await sb.auth.updateUser({ password: 'secret123' });
    expect(noEmail.error!.status).toBe(422);
    const email = uniqueEmail('anon-upgrade');
    expect((await sb.auth.updateUser({ email })).error).toBeNull();
    const code = codeIn(await mailFor(emu, email));
    const { data, error } = await sb.auth.verifyOtp({ email, token: code, type: 'email_change' });
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.is_anonymous).toBe(false);
    expect(decodeJwt(data.session!.access_token).is_anonymous).toBe(false);
  });

  it('reusing an old refresh token after the reuse interval → 400 and the session ends', async () => {
    const sb = client(emu, emu.keys.anon);
    const { data } = await sb.auth.signInAnonymously();
    const a = data.session!;
    const b = (await sb.auth.refreshSession({ refresh_token: a.refresh_token })).data.session!;
    const c = (await sb.auth.refreshSession({ refresh_token: b.refresh_token })).data.session!;
    await new Promise((r) => setTimeout(r, 1200));
    const reuse = await authFetch(emu, '/token?grant_type=refresh_token', {
      method: 'POST',
      body: { refresh_token: a.refresh_token },
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { code: string }).code).toBe('refresh_token_already_used');
    const user = await authFetch(emu, '/user', { token: c.access_token });
    expect(user.status).toBe(403);
    expect(((await user.json()) as { code: string }).code).toBe('session_not_found');
  });
});
