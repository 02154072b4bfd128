// Editing a subscriber (issue 23) with real tokens: admins change name, email (normalised, unique),
// attributes and notes, each change an 'updated' event with who made it and old → new; viewers and
// editors change nothing; the notes are in the subscriber's own export and go with their deletion.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { updateSubscriber } from '../../lib/admin/subscriber-edit';
import { callFunction, signedInClient, sql, startFunctionsEmulator } from '../functions/kit';
import { preferencesPerson } from '../functions/preferences-kit';

let emu: RunningEmulator;
const as: Record<'viewer' | 'editor' | 'admin', SupabaseClient> = {} as never;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  for (const role of ['viewer', 'editor', 'admin'] as const) {
    as[role] = await signedInClient(emu, role);
  }
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

async function row(id: string) {
  return (
    await sql<{ email: string; name: string; attributes: unknown; notes: string }>(
      emu,
      'select email, name, attributes, notes from public.subscribers where id = $1',
      [id],
    )
  )[0];
}

async function updates(id: string) {
  return sql<{ data: Record<string, unknown> }>(
    emu,
    `select data from public.events where subscriber_id = $1 and type = 'updated' order by id`,
    [id],
  );
}

describe('editing a subscriber', () => {
  it('saves every field as an admin, normalised, and records old → new with the actor', async () => {
    const who = await preferencesPerson(emu, { newsletter: 'confirmed' }, { name: 'Ada' });
    const email = `  Edited-${who.id.slice(0, 8)}@Example.COM `;
    const result = await updateSubscriber(as.admin, who.id, {
      email,
      name: ' Ada Lovelace ',
      attributes: { plan: 'team', seats: 3, vip: true, renew: '2027-01-01' },
      notes: 'Met at the conference.',
    });
    expect(result).toEqual({ ok: true });
    const now = await row(who.id);
    expect(now).toEqual({
      email: email.trim().toLowerCase(),
      name: 'Ada Lovelace',
      attributes: { plan: 'team', seats: 3, vip: true, renew: '2027-01-01' },
      notes: 'Met at the conference.',
    });
    const [event] = await updates(who.id);
    const { data: user } = await as.admin.auth.getUser();
    expect(event!.data).toMatchObject({
      source: 'admin',
      actor: { id: user.user!.id, email: user.user!.email },
      changes: {
        email: { from: who.email, to: now!.email },
        name: { from: 'Ada', to: 'Ada Lovelace' },
        attributes: { from: { plan: 'pro' }, to: now!.attributes },
        notes: { from: '', to: 'Met at the conference.' },
      },
    });
    // Saving the same values again records nothing.
    await updateSubscriber(as.admin, who.id, { ...now!, attributes: now!.attributes as never });
    expect(await updates(who.id)).toHaveLength(1);
  });

  it('refuses a taken address at the email field, and a bad one before asking', async () => {
    const a = await preferencesPerson(emu);
    const b = await preferencesPerson(emu);
    const taken = await updateSubscriber(as.admin, b.id, {
      email: a.email.toUpperCase(),
      name: '',
      attributes: {},
      notes: '',
    });
    expect(taken).toEqual({
      ok: false,
      field: 'email',
      message: 'Another subscriber has this address.',
    });
    const bad = await updateSubscriber(as.admin, b.id, {
      email: 'not an address',
      name: '',
      attributes: {},
      notes: '',
    });
    expect(bad).toMatchObject({ ok: false, field: 'email' });
    expect((await row(b.id))!.email).toBe(b.email);
  });

  it('lets viewers and editors change nothing', async () => {
    const who = await preferencesPerson(emu, {}, { name: 'Grace' });
    for (const role of ['viewer', 'editor'] as const) {
      const result = await updateSubscriber(as[role], who.id, {
        email: who.email,
        name: 'Changed',
        attributes: {},
        notes: 'sneaky',
      });
      expect(result.ok, role).toBe(false);
    }
    expect(await row(who.id)).toMatchObject({ name: 'Grace', notes: '' });
    expect(await updates(who.id)).toHaveLength(0);
  });
});

describe("the subscriber's own data", () => {
  it('exports the notes and their history, and deletion removes both', async () => {
    const who = await preferencesPerson(emu, { newsletter: 'confirmed' });
    await updateSubscriber(as.admin, who.id, {
      email: who.email,
      name: '',
      attributes: { plan: 'pro' },
      notes: 'Asked for a refund.',
    });
    const exported = await callFunction(emu, 'preferences', {
      body: { token: who.token, action: 'export' },
    });
    expect(exported.status).toBe(200);
    expect(exported.body.data.subscriber.notes).toBe('Asked for a refund.');
    expect(exported.body.data.events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'updated',
          data: expect.objectContaining({
            changes: expect.objectContaining({ notes: { from: '', to: 'Asked for a refund.' } }),
          }),
        }),
      ]),
    );
    const deleted = await callFunction(emu, 'preferences', {
      body: { token: who.token, action: 'delete' },
    });
    expect(deleted.status).toBe(200);
    expect(await row(who.id)).toBeUndefined();
    const left = await sql(
      emu,
      `select 1 from public.events where data::text like '%Asked for a refund%'`,
    );
    expect(left).toEqual([]);
  });
});
