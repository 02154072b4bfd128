// Issue 23 (Team): an invitee shows as Invited until their first sign-in, and the team card hears
// that sign-in live on the private topic `team:members` (20261128600200): members of any role may
// join it, strangers and anonymous visitors may not, and the message names nobody.
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { Inbox } from '../../emulator/realtime/test-support';
import { clientFor, signedInClient, sql, startFunctionsEmulator } from '../functions/kit';

type Message = { event: string; payload: Record<string, unknown> };

let emu: RunningEmulator;
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  emu = await startFunctionsEmulator();
}, 120_000);
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await emu?.stop();
});

function join(client: SupabaseClient, inbox?: Inbox<Message>): Promise<string> {
  clients.push(client);
  const channel: RealtimeChannel = client
    .channel('team:members', { config: { private: true } })
    .on('broadcast', { event: '*' }, (m) =>
      inbox?.push({ event: m.event, payload: m.payload as Record<string, unknown> }),
    );
  return new Promise<string>((resolve) => {
    channel.subscribe((status, err) =>
      resolve(status === 'SUBSCRIBED' ? status : `${status}: ${err?.message ?? ''}`),
    );
  }).then(async (outcome) => {
    if (outcome !== 'SUBSCRIBED') await client.removeChannel(channel);
    return outcome;
  });
}

describe('team:members', () => {
  it('refuses strangers and anonymous visitors', async () => {
    expect(await join(await signedInClient(emu, null))).toMatch(/^CHANNEL_ERROR: Unauthorized/);
    expect(await join(clientFor(emu, 'publishable'))).toMatch(/^CHANNEL_ERROR: Unauthorized/);
  });

  it('tells a viewer when an invitee first signs in, and team_sign_ins no longer says Invited', async () => {
    const viewer = await signedInClient(emu, 'viewer');
    const heard = new Inbox<Message>();
    expect(await join(viewer, heard)).toBe('SUBSCRIBED');

    const service = clientFor(emu, 'service');
    const email = `invitee-${randomBytes(4).toString('hex')}@example.com`;
    const link = await service.auth.admin.generateLink({ type: 'invite', email });
    expect(link.error).toBeNull();
    const userId = link.data.user!.id;
    await sql(emu, `insert into public.members (user_id, email, role) values ($1, $2, 'editor')`, [
      userId,
      email,
    ]);
    const invited = async () =>
      ((await viewer.rpc('team_sign_ins')).data as { user_id: string; invited: boolean }[]).find(
        (r) => r.user_id === userId,
      )?.invited;
    expect(await invited()).toBe(true);

    // The invitee follows the emailed link: their first sign-in.
    const invitee = clientFor(emu, 'publishable');
    const verified = await invitee.auth.verifyOtp({
      token_hash: link.data.properties!.hashed_token,
      type: 'invite',
    });
    expect(verified.error).toBeNull();
    const message = await heard.next((m) => m.event === 'changed');
    expect(JSON.stringify(message.payload)).not.toContain(email);
    expect(JSON.stringify(message.payload)).not.toContain(userId);
    expect(await invited()).toBe(false);
  });
});
