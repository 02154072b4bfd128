// claim-owner (SPEC §6) through HTTP against the emulator: the POSTBOX_OWNER_EMAIL account becomes
// owner (again and again, harmlessly); any other account, or an unconfirmed one, is forbidden.
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
} from './kit';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFunctionsEmulator();
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

async function signedIn(email: string): Promise<{ id: string; token: string }> {
  const password = `pw-${randomBytes(8).toString('hex')}`;
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

describe('claim-owner', () => {
  it('refuses another address with 403 and changes nothing', async () => {
    const other = await signedIn(`someone-${randomBytes(3).toString('hex')}@example.com`);
    const before = await snapshot(emu);
    const res = await claim(other.token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(await snapshot(emu)).toBe(before);
  });

  it('makes the owner address owner, and a second call changes nothing', async () => {
    const owner = await signedIn(TEST_OWNER_EMAIL.toUpperCase());
    const res = await claim(owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      member: { user_id: owner.id, email: TEST_OWNER_EMAIL, role: 'owner' },
    });
    const before = await snapshot(emu);
    const again = await callFunction(emu, 'claim-owner', { method: 'POST', bearer: owner.token });
    expect(again.status).toBe(200);
    expect(again.text).toBe(res.text);
    expect(await snapshot(emu)).toBe(before);
    const rows = await sql(emu, 'select role from public.members where user_id = $1', [owner.id]);
    expect(rows).toEqual([{ role: 'owner' }]);

    // Unconfirmed (e.g. the address changed and is not verified yet): refused.
    await sql(emu, 'update auth.users set email_confirmed_at = null where id = $1', [owner.id]);
    const unconfirmed = await claim(owner.token);
    expect(unconfirmed.status).toBe(403);
    expect(await snapshot(emu)).toBe(before);
  });

  it('refuses anonymous callers and bad requests', async () => {
    const before = await snapshot(emu);
    expect((await claim()).status).toBe(401);
    const anon = await claim(emu.keys.anon);
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('unauthenticated');
    const other = await signedIn(`x-${randomBytes(3).toString('hex')}@example.com`);
    const get = await callFunction(emu, 'claim-owner', { method: 'GET', bearer: other.token });
    expect(get.status).toBe(405);
    const json = await callFunction(emu, 'claim-owner', {
      bearer: other.token,
      rawBody: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(json.status).toBe(422);
    expect(json.body.error.code).toBe('invalid_input');
    expect(await snapshot(emu)).toBe(before);
    expect((await callFunction(emu, 'claim-owner', { method: 'OPTIONS' })).status).toBe(204);
  });
});
