// The settings, team and media-upload data layer against the real schema, Storage and PostgREST
// (emulator): only the owner saves settings, refusals land at their field, the last owner stays,
// and images go to the media bucket for editors only.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, sql, startFunctionsEmulator } from '../../tests/functions/kit';
import type { Role } from '../roles';
import { QueryError } from '../use-query';
import { MEDIA_BUCKET, uploadImage } from './media-upload';
import { changeRole, inviteMember, listMembers, removeMember } from './members';
import { getSettings, saveErrorFor, saveSettings } from './settings';

let emu: RunningEmulator;
const users: Partial<Record<Role, { id: string; email: string; client: SupabaseClient }>> = {};

async function member(role: Role, invitedBy: string | null = null) {
  const service = clientFor(emu, 'service');
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const password = `pw-${randomUUID()}`;
  const { data, error } = await service.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw new Error(`createUser: ${error?.message}`);
  await sql(
    emu,
    'insert into public.members (user_id, email, role, invited_by) values ($1, $2, $3, $4)',
    [data.user.id, email, role, invitedBy],
  );
  const client = clientFor(emu, 'publishable');
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(`signIn: ${signIn.error.message}`);
  return { id: data.user.id, email, client };
}

const as = (role: Role) => users[role]!.client;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  users.owner = await member('owner');
  for (const role of ['admin', 'editor', 'viewer'] as const)
    users[role] = await member(role, users.owner.id);
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

async function refusal(promise: Promise<unknown>): Promise<QueryError> {
  try {
    await promise;
  } catch (error) {
    return error as QueryError;
  }
  throw new Error('expected a refusal');
}

describe('settings', () => {
  it('every member reads them; only the owner saves', async () => {
    expect((await getSettings(as('viewer'))).site_name).toBe('The Postbox Letter');
    const saved = await saveSettings(as('owner'), { site_name: 'Renamed', track_clicks: true });
    expect(saved).toMatchObject({ site_name: 'Renamed', track_clicks: true });
    const refused = await refusal(saveSettings(as('admin'), { site_name: 'Admin was here' }));
    expect(saveErrorFor(refused)).toEqual({
      field: 'form',
      message: 'Only the owner can change the settings.',
    });
    expect((await getSettings(as('viewer'))).site_name).toBe('Renamed');
  });

  it('places a check-constraint refusal at its field', async () => {
    const refused = await refusal(saveSettings(as('owner'), { sender_email: 'not an address' }));
    expect(refused.code).toBe('23514');
    expect(saveErrorFor(refused)).toEqual({
      field: 'sender_email',
      message: 'Enter a valid email address.',
    });
  });
});

describe('team', () => {
  it('lists members with their inviter', async () => {
    const team = await listMembers(as('viewer'));
    const editor = team.find((m) => m.role === 'editor');
    expect(editor).toMatchObject({
      email: users.editor!.email,
      invitedByEmail: users.owner!.email,
    });
    expect(team.find((m) => m.role === 'owner')?.invitedByEmail).toBeNull();
  });

  it('only the owner changes roles and removes; the last owner stays', async () => {
    const denied = await refusal(changeRole(as('admin'), users.editor!.id, 'admin'));
    expect(denied).toMatchObject({
      code: 'forbidden',
      message: 'You do not have permission to do that.',
    });
    const demote = await refusal(changeRole(as('owner'), users.owner!.id, 'admin'));
    expect(demote).toMatchObject({
      code: '23514',
      message: 'The team must keep at least one owner.',
    });
    const leave = await refusal(removeMember(as('owner'), users.owner!.id));
    expect(leave.code).toBe('23514');

    await changeRole(as('owner'), users.editor!.id, 'viewer');
    await removeMember(as('owner'), users.viewer!.id);
    const team = await listMembers(as('owner'));
    expect(team.find((m) => m.user_id === users.editor!.id)?.role).toBe('viewer');
    expect(team.some((m) => m.user_id === users.viewer!.id)).toBe(false);
  });
});

describe('invite-member from the page', () => {
  it('the owner invites once; the second time is a conflict at the email field', async () => {
    const email = `invited-${randomUUID().slice(0, 8)}@example.com`;
    const invited = await inviteMember(as('owner'), ` ${email.toUpperCase()} `, 'editor');
    expect(invited).toEqual({
      ok: true,
      member: expect.objectContaining({ email, role: 'editor' }),
    });
    const again = await inviteMember(as('owner'), email, 'viewer');
    expect(again).toMatchObject({ ok: false, field: 'email', code: 'conflict' });
    const team = await listMembers(as('owner'));
    expect(team.find((m) => m.email === email)?.invitedByEmail).toBe(users.owner!.email);
  });

  it('an admin is refused with the catalogue message', async () => {
    const refused = await inviteMember(
      as('admin'),
      `x-${randomUUID().slice(0, 8)}@example.com`,
      'viewer',
    );
    expect(refused).toEqual({
      ok: false,
      field: null,
      code: 'forbidden',
      message: 'You do not have permission to do that.',
    });
  });
});

describe('media upload', () => {
  const png = () =>
    sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .png()
      .toBuffer();

  it('uploads an image under the folder for a member who may, and refuses a viewer', async () => {
    const file = new File([await png()], 'My Logo.png', { type: 'image/png' });
    const path = await uploadImage(as('admin'), 'logo', file);
    expect(path).toMatch(/^logo\/\d{13}-my-logo\.png$/);
    const [row] = await sql<{ name: string }>(
      emu,
      'select name from storage.objects where bucket_id = $1 and name = $2',
      [MEDIA_BUCKET, path],
    );
    expect(row?.name).toBe(path);
    // The former editor is a viewer now (previous test): Storage's policy refuses them.
    const refused = await refusal(uploadImage(users.editor!.client, 'logo', file));
    expect(refused.message).toMatch(/row-level security/);
  });

  it('refuses a file that is not an image before sending it', async () => {
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    const refused = await refusal(uploadImage(as('admin'), 'logo', text));
    expect(refused).toMatchObject({
      code: 'invalid_input',
      message: 'Choose a PNG, JPEG, WebP or GIF image.',
    });
  });
});
