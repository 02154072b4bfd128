// Conformance: MFA with TOTP through supabase-js — enrol, challenge, verify with a code computed
// by the otpauth library, aal/amr in the tokens, unenrol, and the admin API's factor list/delete.
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import {
  CLI_DEFAULTS_CONFIG,
  client,
  decodeJwt,
  startWithConfig,
  uniqueEmail,
} from './test-kit.js';

const CONFIG = `${CLI_DEFAULTS_CONFIG}
[auth.mfa.totp]
enroll_enabled = true
verify_enabled = true
`;

let emu: RunningEmulator & { cleanupDir(): Promise<void> };
beforeAll(async () => {
  emu = await startWithConfig(CONFIG);
}, 120_000);
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

const codeFor = (secret: string, offsetMs = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetMs,
  });

describe('MFA with TOTP', () => {
  it('enrols, verifies to aal2 and back, unenrols, and the admin lists and deletes factors', async () => {
    const email = uniqueEmail('mfa');
    const c = client(emu, emu.keys.anon);
    const signUp = await c.auth.signUp({ email, password: 'mfa-pass' });
    expect(decodeJwt(signUp.data.session!.access_token).aal).toBe('aal1');

    const enrolled = await c.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone' });
    expect(enrolled.error).toBeNull();
    const { id: factorId, totp } = enrolled.data as {
      id: string;
      totp: { secret: string; uri: string; qr_code: string };
    };
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totp.uri).toBe(
      `otpauth://totp/127.0.0.1:3000:${email}?algorithm=SHA1&digits=6&issuer=127.0.0.1%3A3000&period=30&secret=${totp.secret}`,
    );
    expect(totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    const dup = await c.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone' });
    expect(dup.error?.code).toBe('mfa_factor_name_conflict');

    const challenge = await c.auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    const challengeId = challenge.data!.id;
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000 + 200);
    const wrong = await c.auth.mfa.verify({ factorId, challengeId, code: '000000' });
    expect([wrong.error?.status, wrong.error?.code, wrong.error?.message]).toEqual([
      422,
      'mfa_verification_failed',
      'Invalid TOTP code entered',
    ]);
    const verified = await c.auth.mfa.verify({ factorId, challengeId, code: codeFor(totp.secret) });
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as Array<{ method: string }>).map((a) => a.method).sort()).toEqual([
      'password',
      'totp',
    ]);
    const level = await c.auth.mfa.getAuthenticatorAssuranceLevel();
    expect([level.data?.currentLevel, level.data?.nextLevel]).toEqual(['aal2', 'aal2']);
    const { data: me } = await c.auth.getUser();
    expect(me.user?.factors).toEqual([
      expect.objectContaining({
        id: factorId,
        factor_type: 'totp',
        status: 'verified',
        friendly_name: 'phone',
      }),
    ]);
    // A refresh keeps the level.
    const refreshed = await c.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal2');
    // A used challenge cannot verify again.
    const reused = await c.auth.mfa.verify({ factorId, challengeId, code: codeFor(totp.secret) });
    expect(reused.error?.code).toBe('mfa_factor_not_found');

    // A second sign-in is aal1 with aal2 next; it may neither unenrol nor enrol more.
    const other = client(emu, emu.keys.anon);
    await other.auth.signInWithPassword({ email, password: 'mfa-pass' });
    const otherLevel = await other.auth.mfa.getAuthenticatorAssuranceLevel();
    expect([otherLevel.data?.currentLevel, otherLevel.data?.nextLevel]).toEqual(['aal1', 'aal2']);
    const refused = await other.auth.mfa.unenroll({ factorId });
    expect([refused.error?.status, refused.error?.code]).toEqual([422, 'insufficient_aal']);
    const more = await other.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'second' });
    expect([more.error?.status, more.error?.code]).toEqual([403, 'insufficient_aal']);

    // The aal2 session enrols a second factor and unenrols it.
    const second = await c.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'second' });
    expect(second.error).toBeNull();
    const removed = await c.auth.mfa.unenroll({ factorId: second.data!.id });
    expect(removed.data).toEqual({ id: second.data!.id });

    // The admin lists the verified factor and deletes it; the session falls back to aal1.
    const admin = client(emu, emu.keys.serviceRole);
    const userId = signUp.data.user!.id;
    const listed = await admin.auth.admin.mfa.listFactors({ userId });
    expect(listed.data?.factors.map((f) => [f.id, f.status])).toEqual([[factorId, 'verified']]);
    const deleted = await admin.auth.admin.mfa.deleteFactor({ userId, id: factorId });
    expect(deleted.error).toBeNull();
    expect((await admin.auth.admin.mfa.listFactors({ userId })).data?.factors).toEqual([]);
    const after = await c.auth.refreshSession();
    expect(decodeJwt(after.data.session!.access_token).aal).toBe('aal1');
  }, 60_000);

  it("accepts the previous 30 s step, not older codes, and refuses another user's factor", async () => {
    const c = client(emu, emu.keys.anon);
    await c.auth.signUp({ email: uniqueEmail('mfa-skew'), password: 'mfa-pass' });
    const { data } = await c.auth.mfa.enroll({ factorType: 'totp' });
    const { id: factorId, totp } = data as { id: string; totp: { secret: string } };
    const old = await c.auth.mfa.challengeAndVerify({
      factorId,
      code: codeFor(totp.secret, -120_000),
    });
    expect(old.error?.code).toBe('mfa_verification_failed');
    const late = await c.auth.mfa.challengeAndVerify({
      factorId,
      code: codeFor(totp.secret, -30_000),
    });
    expect(late.error).toBeNull();

    const stranger = client(emu, emu.keys.anon);
    await stranger.auth.signUp({ email: uniqueEmail('mfa-stranger'), password: 'mfa-pass' });
    const theirs = await stranger.auth.mfa.challenge({ factorId });
    expect([theirs.error?.status, theirs.error?.code]).toEqual([404, 'mfa_factor_not_found']);
  }, 30_000);
});
