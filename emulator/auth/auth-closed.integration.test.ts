// Auth with sign-ups closed (enable_signup = false), as Postbox's team is: invites still work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  client,
  codeIn,
  mailFor,
  linkIn,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

const CONFIG = `
[auth]
site_url = "http://127.0.0.1:3000"
enable_signup = false
jwt_expiry = 600
`;

let emu: RunningEmulator & { cleanupDir(): Promise<void> };

beforeAll(async () => {
  emu = await startWithConfig(CONFIG);
});
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

describe('closed sign-ups', () => {
  it('signUp and OTP for unknown addresses → 422 signup_disabled; settings say so', async () => {
    const sb = client(emu, emu.keys.anon);
    const signUp = await sb.auth.signUp({ email: uniqueEmail('closed'), password: 'secret123' });
    expect(signUp.error!.status).toBe(422);
    expect(signUp.error!.code).toBe('signup_disabled');
    const otp = await sb.auth.signInWithOtp({ email: uniqueEmail('closed-otp') });
    expect(otp.error!.status).toBe(422);
    expect(otp.error!.code).toBe('signup_disabled');
    const settings = (await (await authFetch(emu, '/settings')).json()) as {
      disable_signup: boolean;
    };
    expect(settings.disable_signup).toBe(true);
  });

  it('refuses a link to an account that never confirmed, as upstream signs it up again', async () => {
    const email = uniqueEmail('unconfirmed');
    const admin = client(emu, emu.keys.secret).auth.admin;
    expect((await admin.inviteUserByEmail(email)).error).toBeNull();
    const sb = client(emu, emu.keys.anon);
    const otp = await sb.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(otp.error!.status).toBe(422);
    expect(otp.error!.code).toBe('signup_disabled');
    // Created confirmed (no password): a magic link goes out.
    const confirmed = uniqueEmail('confirmed');
    expect((await admin.createUser({ email: confirmed, email_confirm: true })).error).toBeNull();
    const link = await sb.auth.signInWithOtp({
      email: confirmed,
      options: { shouldCreateUser: false },
    });
    expect(link.error).toBeNull();
    expect((await mailFor(emu, confirmed)).subject).toBe('Your Magic Link');
  });

  it('an invited member accepts the invite, then signs in with a magic link code', async () => {
    const email = uniqueEmail('member');
    const admin = client(emu, emu.keys.secret).auth.admin;
    const invited = await admin.inviteUserByEmail(email);
    expect(invited.error).toBeNull();
    const accept = await fetch(linkIn(await mailFor(emu, email)), { redirect: 'manual' });
    expect(accept.status).toBe(303);
    const fragment = new URLSearchParams(accept.headers.get('location')!.split('#')[1]);
    expect(fragment.get('type')).toBe('invite');
    // jwt_expiry from config.toml sets the token lifetime.
    expect(fragment.get('expires_in')).toBe('600');

    const sb = client(emu, emu.keys.anon);
    expect(
      (await sb.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error,
    ).toBeNull();
    const mail = await mailFor(emu, email, 2);
    expect(mail.subject).toBe('Your Magic Link');
    const { data, error } = await sb.auth.verifyOtp({ email, token: codeIn(mail), type: 'email' });
    expect(error).toBeNull();
    expect(data.session!.expires_in).toBe(600);
  });
});
