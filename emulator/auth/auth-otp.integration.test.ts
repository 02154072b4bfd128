// Auth one-time passwords: OTP codes, magic links (implicit) and PKCE code exchange, confirmations on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  client,
  codeIn,
  CONFIRMATIONS_CONFIG,
  decodeJwt,
  fragmentOf,
  linkIn,
  mailFor,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

let emu: RunningEmulator & { cleanupDir(): Promise<void> };

beforeAll(async () => {
  emu = await startWithConfig(CONFIRMATIONS_CONFIG);
});
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
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
