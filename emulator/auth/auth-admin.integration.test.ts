// The admin users API, invite and generate_link: service role only, with both key styles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  authFetch,
  CLI_DEFAULTS_CONFIG,
  client,
  linkIn,
  mailFor,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

let emu: RunningEmulator & { cleanupDir(): Promise<void> };

beforeAll(async () => {
  // The CLI's local defaults (sign-ups open), not this repository's config, which closes them.
  emu = await startWithConfig(CLI_DEFAULTS_CONFIG);
});
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

const adminKeys = [
  ['legacy service_role JWT', () => emu.keys.serviceRole],
  ['secret key', () => emu.keys.secret],
] as const;

describe.each(adminKeys)('admin API with the %s', (_name, key) => {
  it('createUser, getUserById, updateUserById, deleteUser', async () => {
    const admin = client(emu, key()).auth.admin;
    const email = uniqueEmail('admin');
    const created = await admin.createUser({
      email,
      password: 'secret123',
      email_confirm: true,
      user_metadata: { name: 'Lin' },
      app_metadata: { tier: 'gold' },
    });
    expect(created.error).toBeNull();
    const user = created.data.user!;
    expect(user.email).toBe(email);
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.app_metadata).toEqual({ provider: 'email', providers: ['email'], tier: 'gold' });

    const dup = await admin.createUser({ email, password: 'secret123' });
    expect(dup.error!.status).toBe(422);
    expect(dup.error!.code).toBe('email_exists');

    const got = await admin.getUserById(user.id);
    expect(got.data.user!.user_metadata).toEqual({ name: 'Lin', email_verified: true });

    const updated = await admin.updateUserById(user.id, {
      user_metadata: { name: null, city: 'Oslo' },
      app_metadata: { role: 'editor' },
      ban_duration: '24h',
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user!.user_metadata).toEqual({ city: 'Oslo', email_verified: true });
    expect(updated.data.user!.app_metadata).toMatchObject({ tier: 'gold', role: 'editor' });
    expect(updated.data.user!.banned_until).toBeTruthy();
    const banned = await client(emu, emu.keys.anon).auth.signInWithPassword({
      email,
      password: 'secret123',
    });
    expect(banned.error!.code).toBe('user_banned');

    const deleted = await admin.deleteUser(user.id);
    expect(deleted.error).toBeNull();
    const gone = await admin.getUserById(user.id);
    expect(gone.error!.status).toBe(404);
    expect(gone.error!.code).toBe('user_not_found');
  });

  it('generateLink returns the flattened link properties', async () => {
    const admin = client(emu, key()).auth.admin;
    const email = uniqueEmail('genlink');
    const { data, error } = await admin.generateLink({
      type: 'signup',
      email,
      password: 'secret123',
      options: { redirectTo: 'http://127.0.0.1:3000/done' },
    });
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.properties!.verification_type).toBe('signup');
    expect(data.properties!.email_otp).toMatch(/^\d{6}$/);
    expect(data.properties!.hashed_token).toMatch(/^[0-9a-f]{56}$/);
    expect(data.properties!.redirect_to).toBe('http://127.0.0.1:3000/done');
    expect(data.properties!.action_link).toBe(
      `${emu.url}/auth/v1/verify?token=${data.properties!.hashed_token}&type=signup&redirect_to=${encodeURIComponent('http://127.0.0.1:3000/done')}`,
    );
    const res = await fetch(data.properties!.action_link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(
      res.headers.get('location')!.startsWith('http://127.0.0.1:3000/done#access_token='),
    ).toBe(true);

    const magic = await admin.generateLink({ type: 'magiclink', email });
    expect(magic.error).toBeNull();
    const verified = await client(emu, emu.keys.anon).auth.verifyOtp({
      email,
      token: magic.data.properties!.email_otp,
      type: 'magiclink',
    });
    expect(verified.error).toBeNull();

    const missing = await admin.generateLink({ type: 'recovery', email: uniqueEmail('nobody') });
    expect(missing.error!.status).toBe(404);
  });
});

describe('listing and invitations', () => {
  it('listUsers pages with X-Total-Count and Link headers', async () => {
    const admin = client(emu, emu.keys.secret).auth.admin;
    for (let i = 0; i < 3; i++) await admin.createUser({ email: uniqueEmail('list') });
    const res = await authFetch(emu, '/admin/users?page=1&per_page=2', { apikey: emu.keys.secret });
    expect(res.status).toBe(200);
    const total = Number(res.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(3);
    const last = Math.ceil(total / 2);
    expect(res.headers.get('link')).toBe(
      `</admin/users?page=2&per_page=2>; rel="next", ` +
        `</admin/users?page=${last}&per_page=2>; rel="last"`,
    );
    const body = (await res.json()) as { users: unknown[]; aud: string };
    expect(body.users).toHaveLength(2);
    expect(body.aud).toBe('authenticated');

    const viaClient = await admin.listUsers({ page: 1, perPage: 2 });
    expect(viaClient.error).toBeNull();
    expect(viaClient.data.users).toHaveLength(2);
    const pagination = viaClient.data as {
      total: number;
      nextPage: number | null;
      lastPage: number;
    };
    expect(pagination.total).toBe(total);
    expect(pagination.nextPage).toBe(2);
    expect(pagination.lastPage).toBe(last);
  });

  it('listUsers filters by email and sorts by created_at', async () => {
    const admin = client(emu, emu.keys.secret).auth.admin;
    const tag = `needle${Date.now()}`;
    await admin.createUser({ email: `${tag}-a@example.com` });
    await admin.createUser({ email: `${tag}-b@example.com` });
    const res = await authFetch(emu, `/admin/users?filter=${tag}&sort=created_at%20asc`, {
      apikey: emu.keys.secret,
    });
    expect(res.headers.get('x-total-count')).toBe('2');
    const body = (await res.json()) as { users: Array<{ email: string }> };
    expect(body.users.map((u) => u.email)).toEqual([
      `${tag}-a@example.com`,
      `${tag}-b@example.com`,
    ]);
    const bad = await authFetch(emu, '/admin/users?page=abc', { apikey: emu.keys.secret });
    expect(bad.status).toBe(400);
  });

  it('inviteUserByEmail mails an invite link that signs the user in', async () => {
    const admin = client(emu, emu.keys.secret).auth.admin;
    const email = uniqueEmail('invite');
    const { data, error } = await admin.inviteUserByEmail(email, {
      data: { team: 'blue' },
      redirectTo: 'http://127.0.0.1:3000/join',
    });
    expect(error).toBeNull();
    expect(data.user!.invited_at).toBeTruthy();
    expect(data.user!.user_metadata).toEqual({ team: 'blue' });
    const mail = await mailFor(emu, email);
    expect(mail.subject).toBe('You have been invited');
    const res = await fetch(linkIn(mail), { redirect: 'manual' });
    const location = res.headers.get('location')!;
    expect(location.startsWith('http://127.0.0.1:3000/join#')).toBe(true);
    expect(new URLSearchParams(location.split('#')[1]).get('type')).toBe('invite');
  });

  it('validation errors as upstream words them', async () => {
    const badId = await authFetch(emu, '/admin/users/not-a-uuid', { apikey: emu.keys.secret });
    expect(badId.status).toBe(404);
    expect(await badId.json()).toEqual({
      code: 'validation_failed',
      message: 'user_id must be an UUID',
    });
    const noEmail = await authFetch(emu, '/admin/users', {
      method: 'POST',
      apikey: emu.keys.secret,
      body: { password: 'secret123' },
    });
    expect(noEmail.status).toBe(400);
    expect(((await noEmail.json()) as { message: string }).message).toBe(
      'Cannot create a user without either an email or phone',
    );
  });

  it('non-admin callers get 403 not_admin', async () => {
    for (const apikey of [emu.keys.anon, emu.keys.publishable]) {
      const res = await authFetch(emu, '/admin/users', { apikey });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ code: 'not_admin', message: 'User not allowed' });
    }
    const sb = client(emu, emu.keys.anon);
    const { data } = await sb.auth.signUp({ email: uniqueEmail('plain'), password: 'secret123' });
    const asUser = await authFetch(emu, '/admin/users', { token: data.session!.access_token });
    expect(asUser.status).toBe(403);
    const invite = await authFetch(emu, '/invite', {
      method: 'POST',
      body: { email: uniqueEmail('x') },
    });
    expect(invite.status).toBe(403);
  });
});
