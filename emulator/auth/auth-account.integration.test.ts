// Auth account flows with confirmations on: recovery, resend, email change, anonymous users, reuse.
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
  mailCount,
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

  it('updateUser({email}) mails both addresses; their links apply the change', async () => {
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
    expect((await mailFor(emu, next)).subject).toBe('Confirm Email Change');
    // resend() names the current address; the pending new one gets a fresh link.
    const resent = await sb.auth.resend({
      type: 'email_change',
      email,
      options: { emailRedirectTo: 'http://127.0.0.1:3000/changed' },
    });
    expect(resent.error).toBeNull();
    const mail = await mailFor(emu, next, 2);
    expect(mail.subject).toBe('Confirm Email Change');
    // double_confirm_changes (on by default): the current address's link is needed too.
    const toCurrent = await mailFor(emu, email, 2);
    const first = await fetch(linkIn(toCurrent), { redirect: 'manual' });
    expect(fragmentOf(first.headers.get('location')!).get('message')).toMatch(/^Confirmation/);
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
