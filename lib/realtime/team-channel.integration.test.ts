// teamChannels against the emulator's Realtime with the unchanged supabase-js client, signed in as
// an editor: listeners of one topic share one private channel, each hears the messages and its
// re-read runs on every join, including after a dropped socket is rejoined.
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningEmulator } from '../../emulator/index';
import { startCampaignEmulator, until } from '../../tests/campaigns/kit';
import { clientFor, sql } from '../../tests/functions/kit';
import type { Database } from '../database.types';
import { teamChannels, type TeamMessage } from './team-channel';

let emu: RunningEmulator;
let editor: SupabaseClient<Database>;
/** Every socket the editor's client opened, so a test can cut one as a network drop would. */
const sockets: WebSocket[] = [];

class TrackedWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    sockets.push(this);
  }
}

beforeAll(async () => {
  emu = await startCampaignEmulator();
  // A password sign-in, as in the browser: supabase-js hands the session's token to Realtime on
  // every (re)connect, so a rejoin after a dropped socket is still the member's.
  const email = `editor-${randomUUID().slice(0, 8)}@example.com`;
  const password = `pw-${randomUUID()}`;
  const created = await clientFor(emu, 'service').auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  expect(created.error).toBeNull();
  await sql(emu, `insert into public.members (user_id, email, role) values ($1, $2, 'editor')`, [
    created.data.user!.id,
    email,
  ]);
  editor = createClient<Database>(emu.url, emu.keys.publishable, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: TrackedWebSocket as never },
  });
  const signIn = await editor.auth.signInWithPassword({ email, password });
  expect(signIn.error).toBeNull();
});

afterAll(async () => {
  await editor?.removeAllChannels();
  await emu?.stop();
});

const insertCampaign = async (name: string) => {
  const { data, error } = await clientFor(emu, 'service')
    .from('campaigns')
    .insert({ name, subject: 'Hello' })
    .select('id')
    .single();
  expect(error).toBeNull();
  return (data as { id: string }).id;
};

describe('teamChannels', () => {
  it('shares one private channel between listeners of a topic, and leaves it after the last', async () => {
    const channels = teamChannels(editor);
    const a: TeamMessage[] = [];
    const b: TeamMessage[] = [];
    let joins = 0;
    const stopA = channels.listen('team:campaigns', {
      onMessage: (m) => a.push(m),
      onJoin: () => joins++,
    });
    const stopB = channels.listen('team:campaigns', {
      onMessage: (m) => b.push(m),
      onJoin: () => joins++,
    });
    await until(async () => joins === 2, 15_000, 'both listeners to hear the join');
    expect(editor.getChannels().filter((c) => c.topic === 'realtime:team:campaigns')).toHaveLength(
      1,
    );

    const first = await insertCampaign('Shared one');
    await until(async () => a.length === 1 && b.length === 1, 10_000, 'the message for both');
    expect(a[0]).toMatchObject({ event: 'changed', payload: { op: 'insert', ids: [first] } });

    stopA();
    const second = await insertCampaign('Shared two');
    await until(async () => b.length === 2, 10_000, 'the message for the one still listening');
    expect(b[1]!.payload.ids).toEqual([second]);
    expect(a).toHaveLength(1);

    // The last listener leaves: the channel lingers (a page change), then goes; listening again
    // joins a new one.
    stopB();
    await until(
      async () => !editor.getChannels().some((c) => c.topic === 'realtime:team:campaigns'),
      10_000,
      'the channel to be removed',
    );
    const c: TeamMessage[] = [];
    const stopC = channels.listen('team:campaigns', { onMessage: (m) => c.push(m) });
    await new Promise((r) => setTimeout(r, 1500));
    const third = await insertCampaign('Shared three');
    await until(async () => c.some((m) => m.payload.ids?.includes(third)), 10_000, 'a new join');
    stopC();
  }, 60_000);

  it('re-reads on the first join and after a dropped socket rejoins, seeing what changed meanwhile', async () => {
    const channels = teamChannels(editor);
    const statuses: string[] = [];
    const reads: string[][] = [];
    const stop = channels.listen('team:imports', {
      onMessage: () => undefined,
      onJoin: () => {
        void editor
          .from('campaigns')
          .select('name')
          .order('name')
          .then(({ data }) => reads.push((data ?? []).map((c) => c.name)));
      },
      onStatus: (status) => statuses.push(status),
    });
    await until(async () => reads.length === 1, 15_000, 'the first join and its read');
    expect(statuses).toEqual(['live']);
    expect(reads[0]).not.toContain('Written while offline');

    // The network goes away; a campaign is written while the page cannot hear about it.
    sockets.at(-1)!.terminate();
    await until(async () => statuses.includes('offline'), 15_000, 'the channel to go offline');
    await insertCampaign('Written while offline');

    // supabase-js reconnects and rejoins by itself; the join's re-read finds the new campaign.
    await until(async () => reads.length === 2, 20_000, 'the rejoin and its read');
    expect(statuses.at(-1)).toBe('live');
    expect(reads[1]).toContain('Written while offline');
    stop();
  }, 60_000);
});
